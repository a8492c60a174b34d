package llm

// ImageOmitted replaces, in the text of a message, an image that pruning
// removed, so the model knows one was there.
const ImageOmitted = "[screenshot omitted]"

// PruneImages returns conv with the images of all but the last keep
// image-bearing messages removed and ImageOmitted added to their text.
// Screenshots are large: every one stays in the request and in storage
// until it is pruned. conv itself is not modified.
func PruneImages(conv []Message, keep int) []Message {
	seen := 0
	var out []Message
	for i := len(conv) - 1; i >= 0; i-- {
		if len(conv[i].Images) == 0 {
			continue
		}
		if seen++; seen <= keep {
			continue
		}
		if out == nil {
			out = append([]Message(nil), conv...)
		}
		m := &out[i]
		m.Images = nil
		if m.Content != "" {
			m.Content += "\n\n"
		}
		m.Content += ImageOmitted
	}
	if out == nil {
		return conv
	}
	return out
}
