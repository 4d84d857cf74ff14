// Package cputime reads the CPU time of the process, which benchmarks and
// `burescope bench` report next to wall time: on a busy shared machine
// wall time alone overstates the cost.
package cputime
