package fsync

import "os"

// Path flushes the file or directory at path to stable storage. Syncing a
// directory makes the renames and creations inside it durable.
func Path(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
