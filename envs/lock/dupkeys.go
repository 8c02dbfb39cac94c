package lock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// duplicateKeys walks the JSON tokens of data and names every object key
// given twice (by path, e.g. services[0].versions.java): encoding/json
// keeps the last one silently, so a lock with two "sha256" keys would be
// read as whichever was written second.
func duplicateKeys(data []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var dups []string
	if err := walkValue(dec, "", &dups); err != nil {
		return nil, err
	}
	return dups, nil
}

// walkValue reads one value at path, recording duplicate keys below it.
func walkValue(dec *json.Decoder, path string, dups *[]string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		return walkObject(dec, path, dups)
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := walkValue(dec, path+"["+strconv.Itoa(i)+"]", dups); err != nil {
				return err
			}
		}
		_, err = dec.Token() // ]
		return err
	}
	return nil
}

func walkObject(dec *json.Decoder, path string, dups *[]string) error {
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, ok := tok.(string)
		if !ok {
			return fmt.Errorf("object key %v at %s is not a string", tok, orRoot(path))
		}
		at := key
		if path != "" {
			at = path + "." + key
		}
		if seen[key] {
			*dups = append(*dups, at)
		}
		seen[key] = true
		if err := walkValue(dec, at, dups); err != nil {
			return err
		}
	}
	_, err := dec.Token() // }
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

func orRoot(path string) string {
	if path == "" {
		return "the top level"
	}
	return path
}
