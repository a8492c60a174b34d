package llm

import (
	"bufio"
	"errors"
	"io"
	"strings"
)

// maxLine bounds one line of a stream so a broken server cannot make us
// buffer without end.
const maxLine = 8 << 20

var errLineTooLong = errors.New("stream line longer than 8 MB")

// event is one server-sent event; Data joins multi-line data with "\n".
type event struct {
	Name string
	Data string
}

// eventReader reads Server-Sent Events (LF or CRLF line ends, comments,
// event: and multi-line data: fields) and also NDJSON, where each line that
// is a bare JSON value is an event of its own.
type eventReader struct {
	r    *bufio.Reader
	name string
	data []string
}

func newEventReader(r io.Reader) *eventReader {
	return &eventReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next event, or io.EOF after the last. A final event
// that lacks its blank line is still delivered.
func (er *eventReader) next() (event, error) {
	for {
		line, err := er.readLine()
		if err != nil && (err != io.EOF || line == "") {
			if err == io.EOF && len(er.data) > 0 {
				return er.dispatch(), nil
			}
			return event{}, err
		}
		if line == "" {
			if len(er.data) > 0 {
				return er.dispatch(), nil
			}
			er.name = ""
			continue
		}
		if line[0] == '{' || line[0] == '[' {
			if len(er.data) > 0 {
				// A JSON line glued to a pending event: deliver both in order.
				ev := er.dispatch()
				er.data = []string{line}
				return ev, nil
			}
			return event{Data: line}, nil
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "data":
			er.data = append(er.data, value)
		case "event":
			er.name = value
		}
		// "" (a comment), id, retry and unknown fields are ignored, as
		// the SSE standard says.
	}
}

func (er *eventReader) dispatch() event {
	ev := event{Name: er.name, Data: strings.Join(er.data, "\n")}
	er.name, er.data = "", nil
	return ev
}

// readLine returns one line without its LF or CRLF.
func (er *eventReader) readLine() (string, error) {
	var b []byte
	for {
		chunk, err := er.r.ReadSlice('\n')
		b = append(b, chunk...)
		if len(b) > maxLine {
			return "", errLineTooLong
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		s := strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
		return s, err
	}
}
