package llm

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// The AWS event stream (application/vnd.amazon.eventstream) frames each
// message as: total length (4 bytes, big endian), headers length (4), a
// CRC32 of those 8 bytes, the headers, the payload, and a CRC32 of all
// that comes before it. A header is a name length (1 byte), the name, a
// type byte and a value whose size the type fixes (strings and byte arrays
// carry a 2-byte length). Bedrock's ConverseStream answers in it.

// Header value types of the event stream.
const (
	esBoolTrue  = 0
	esBoolFalse = 1
	esByte      = 2
	esInt16     = 3
	esInt32     = 4
	esInt64     = 5
	esBytes     = 6
	esString    = 7
	esTimestamp = 8
	esUUID      = 9
)

// Bounds of one frame: the prelude and the trailing CRC, and at most
// 16 MiB in all (AWS allows 16 MiB of payload and 128 KiB of headers).
const (
	esPrelude   = 12
	esMinFrame  = esPrelude + 4
	esMaxFrame  = 16<<20 + 128<<10 + esMinFrame
	esMaxHeader = 128 << 10
)

var errFrame = errors.New("malformed event-stream frame")

// esMessage is one decoded frame. String headers are kept by name; the
// others are only checked for their size.
type esMessage struct {
	Headers map[string]string
	Payload []byte
}

// esReader reads event-stream frames, checking both CRCs.
type esReader struct{ r io.Reader }

func newESReader(r io.Reader) *esReader { return &esReader{r: r} }

// readMessage returns the next frame, io.EOF at a clean end, and
// io.ErrUnexpectedEOF for a frame cut short.
func (er *esReader) readMessage() (esMessage, error) {
	var prelude [esPrelude]byte
	if _, err := io.ReadFull(er.r, prelude[:]); err != nil {
		return esMessage{}, err
	}
	total := binary.BigEndian.Uint32(prelude[0:4])
	hlen := binary.BigEndian.Uint32(prelude[4:8])
	if crc32.ChecksumIEEE(prelude[:8]) != binary.BigEndian.Uint32(prelude[8:12]) {
		return esMessage{}, fmt.Errorf("%w: prelude checksum", errFrame)
	}
	if total < esMinFrame || total > esMaxFrame || hlen > esMaxHeader || hlen > total-esMinFrame {
		return esMessage{}, fmt.Errorf("%w: lengths %d/%d", errFrame, total, hlen)
	}
	frame := make([]byte, total)
	copy(frame, prelude[:])
	if _, err := io.ReadFull(er.r, frame[esPrelude:]); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return esMessage{}, err
	}
	end := total - 4
	if crc32.ChecksumIEEE(frame[:end]) != binary.BigEndian.Uint32(frame[end:]) {
		return esMessage{}, fmt.Errorf("%w: message checksum", errFrame)
	}
	headers, err := esHeaders(frame[esPrelude : esPrelude+hlen])
	if err != nil {
		return esMessage{}, err
	}
	return esMessage{Headers: headers, Payload: frame[esPrelude+hlen : end]}, nil
}

// esHeaders decodes a header block.
func esHeaders(b []byte) (map[string]string, error) {
	h := map[string]string{}
	for len(b) > 0 {
		n := int(b[0])
		if n == 0 || len(b) < 1+n+1 {
			return nil, fmt.Errorf("%w: header name", errFrame)
		}
		name := string(b[1 : 1+n])
		typ := b[1+n]
		b = b[2+n:]
		size := 0
		switch typ {
		case esBoolTrue, esBoolFalse:
		case esByte:
			size = 1
		case esInt16:
			size = 2
		case esInt32:
			size = 4
		case esInt64, esTimestamp:
			size = 8
		case esUUID:
			size = 16
		case esBytes, esString:
			if len(b) < 2 {
				return nil, fmt.Errorf("%w: header %s", errFrame, name)
			}
			size = 2 + int(binary.BigEndian.Uint16(b))
		default:
			return nil, fmt.Errorf("%w: header type %d", errFrame, typ)
		}
		if len(b) < size {
			return nil, fmt.Errorf("%w: header %s", errFrame, name)
		}
		if typ == esString {
			h[name] = string(b[2:size])
		}
		b = b[size:]
	}
	return h, nil
}
