// Package outfile is the one place Burescope writes an output file (an
// embedding, a CSV, a figure, a screenshot). It decides, from what is at
// the path now (os.Lstat), how to write without damaging it:
//
//   - nothing there, or a regular file with one link: the content goes to
//     a temporary file in the same directory, is synced and renamed over
//     the path, so a reader never sees a half-written file and a failed
//     write leaves the path as it was;
//   - a symbolic link: the link is followed (to any depth, dangling links
//     included) and its target is written by these same rules, so the link
//     stays a link;
//   - a character or block device or a FIFO (/dev/null, a named pipe):
//     written directly, never replaced by a regular file;
//   - a descriptor of the process (/dev/stdout, /dev/stderr, /dev/fd/N,
//     /proc/self/fd/N): written in place through the descriptor at its
//     offset, whatever it points at, so `--out /dev/stdout > file` adds to
//     the file instead of replacing it;
//   - a socket or other special file: refused;
//   - a directory: refused with "is a directory";
//   - a regular file with more than one hard link: the content is first
//     written completely to a temporary file, then copied into the
//     existing file, so every link sees the new content (the final copy is
//     not atomic against a crash; the temporary file is the complete copy).
//
// A file written by rename gets mode 0644.
//
// Temporary files are named ".NAME.burescope-tmp-PID-RANDOM" beside the
// target. While one exists, TERM, INT and HUP remove it before the process
// ends the way the signal would have ended it; a temporary file left by a
// process that no longer exists (kill -9, power loss) is removed by the
// next write to the same target.
//
// Check tests in advance that paths can be written (run it before a long
// computation), IsInput that an output does not replace an input; Prepare and Pending.Commit let a command write several
// outputs all or nothing.
package outfile
