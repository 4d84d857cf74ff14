# Convenience wrappers; .ci/dev.sh does the work (and installs what is missing).
.PHONY: run test build bench fuzz
run:
	bash .ci/dev.sh run
test:
	bash .ci/dev.sh test
build:
	bash .ci/dev.sh build
bench:
	go test -run '^$$' -bench . -benchtime 1x ./engine/ ./render/
fuzz:
	for f in $$(go test -list 'Fuzz.*' ./datasets/ | grep ^Fuzz); do go test -run '^$$' -fuzz "^$$f$$" -fuzztime 30s ./datasets/ || exit 1; done
