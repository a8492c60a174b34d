package llm

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"testing"
)

type esVector struct {
	TotalLength   uint32 `json:"total_length"`
	HeadersLength uint32 `json:"headers_length"`
	PreludeCRC    uint32 `json:"prelude_crc"`
	Headers       []struct {
		Name  string          `json:"name"`
		Type  byte            `json:"type"`
		Value json.RawMessage `json:"value"`
	} `json:"headers"`
	Payload    []byte `json:"payload"`
	MessageCRC uint32 `json:"message_crc"`
}

// encodeVector writes the vector's headers in its order, each in its type.
func encodeVector(t *testing.T, v esVector) []byte {
	var hb []byte
	for _, h := range v.Headers {
		hb = append(hb, byte(len(h.Name)))
		hb = append(hb, h.Name...)
		hb = append(hb, h.Type)
		var n int64
		var b []byte
		switch h.Type {
		case esBytes, esString, esUUID:
			if err := json.Unmarshal(h.Value, &b); err != nil {
				t.Fatal(err)
			}
		case esByte, esInt16, esInt32, esInt64, esTimestamp:
			if err := json.Unmarshal(h.Value, &n); err != nil {
				t.Fatal(err)
			}
		}
		switch h.Type {
		case esByte:
			hb = append(hb, byte(n))
		case esInt16:
			hb = binary.BigEndian.AppendUint16(hb, uint16(n))
		case esInt32:
			hb = binary.BigEndian.AppendUint32(hb, uint32(n))
		case esInt64, esTimestamp:
			hb = binary.BigEndian.AppendUint64(hb, uint64(n))
		case esBytes, esString:
			hb = binary.BigEndian.AppendUint16(hb, uint16(len(b)))
			hb = append(hb, b...)
		case esUUID:
			hb = append(hb, b...)
		}
	}
	total := 12 + len(hb) + len(v.Payload) + 4
	out := binary.BigEndian.AppendUint32(nil, uint32(total))
	out = binary.BigEndian.AppendUint32(out, uint32(len(hb)))
	out = binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
	out = append(append(out, hb...), v.Payload...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
}

func TestEventStreamAWSVector(t *testing.T) {
	raw, err := os.ReadFile("testdata/eventstream/all_headers.json")
	if err != nil {
		t.Fatal(err)
	}
	var v esVector
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	frame := encodeVector(t, v)
	if got := binary.BigEndian.Uint32(frame[0:]); got != v.TotalLength {
		t.Fatalf("total length %d, want %d", got, v.TotalLength)
	}
	if got := binary.BigEndian.Uint32(frame[4:]); got != v.HeadersLength {
		t.Fatalf("headers length %d, want %d", got, v.HeadersLength)
	}
	if got := binary.BigEndian.Uint32(frame[8:]); got != v.PreludeCRC {
		t.Fatalf("prelude CRC %d, want %d", got, v.PreludeCRC)
	}
	// The message CRC is not compared: the decoded form does not pin
	// every header byte the encoded original had. Ours is checked on
	// reading, below and in TestEventStreamRejectsDamage.
	r := newESReader(bytes.NewReader(frame))
	m, err := r.readMessage()
	if err != nil {
		t.Fatal(err)
	}
	if m.Headers["content-type"] != "application/json" || string(m.Payload) != "{'foo':'bar'}" || len(m.Headers) != 1 {
		t.Fatalf("decoded %q %q", m.Headers, m.Payload)
	}
	if _, err := r.readMessage(); err != io.EOF {
		t.Fatalf("after the last frame: %v", err)
	}
}

func TestEventStreamRejectsDamage(t *testing.T) {
	raw, _ := os.ReadFile("testdata/eventstream/all_headers.json")
	var v esVector
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	good := encodeVector(t, v)
	for name, damage := range map[string]func([]byte) []byte{
		"prelude crc":  func(b []byte) []byte { b[9] ^= 1; return b },
		"message crc":  func(b []byte) []byte { b[len(b)-1] ^= 1; return b },
		"payload byte": func(b []byte) []byte { b[len(b)-6] ^= 1; return b },
		"huge length": func(b []byte) []byte {
			binary.BigEndian.PutUint32(b, 1<<30)
			binary.BigEndian.PutUint32(b[8:], crc32.ChecksumIEEE(b[:8]))
			return b
		},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := newESReader(bytes.NewReader(damage(bytes.Clone(good)))).readMessage()
			if !errors.Is(err, errFrame) {
				t.Fatalf("err %v", err)
			}
		})
	}
	_, err := newESReader(bytes.NewReader(good[:len(good)-3])).readMessage()
	if err != io.ErrUnexpectedEOF {
		t.Fatalf("cut frame: %v", err)
	}
	// A string header's value is decoded; base64 of the vector's payload.
	if p, _ := base64.StdEncoding.DecodeString("eydmb28nOidiYXInfQ=="); string(p) != "{'foo':'bar'}" {
		t.Fatal(string(p))
	}
}
