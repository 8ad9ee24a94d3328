// Package shareddata finds the public benchmark data (NFCorpus, Hetionet,
// MedQA, the TCM graph) that lives beside the repository in shared/data,
// for the tests and benchmarks that read it.
//
// The data is never copied into the repository, so a test that needs it
// must run without it too: Path skips the test when the file is absent,
// with a message that names the path and the MEDKB_DATA variable.
//
// The folder is $MEDKB_DATA when set, else shared/data beside the module
// root, the folder holding go.mod, found by walking up from the working
// directory (go test runs in the package's folder). The default so does
// not depend on how deep the package lies.
//
// Caveat: a relative MEDKB_DATA is taken relative to the working
// directory, which go test sets to each package's folder; set it to an
// absolute path.
package shareddata
