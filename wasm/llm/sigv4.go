package llm

import (
	"encoding/hex"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"
)

// awsCreds are an AWS access key pair, with the session token of
// temporary credentials.
type awsCreds struct {
	AccessKeyID  string
	SecretKey    string
	SessionToken string
}

const (
	sigV4Algorithm  = "AWS4-HMAC-SHA256"
	sigV4TimeFormat = "20060102T150405Z"
)

// signV4 signs one request with AWS Signature Version 4: it sets
// X-Amz-Date, X-Amz-Security-Token (temporary credentials) and
// Authorization in h. Every header in h is signed, with host. rawURL must
// be the address exactly as it is sent (its escaped path and query).
func signV4(method, rawURL string, h map[string]string, body []byte, creds awsCreds, region, service string, now time.Time) error {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return fmt.Errorf("sigv4: bad URL %q", rawURL)
	}
	stamp := now.UTC().Format(sigV4TimeFormat)
	day := stamp[:8]
	for k := range h {
		switch strings.ToLower(k) {
		case "x-amz-date", "x-amz-security-token", "authorization", "host":
			delete(h, k)
		}
	}
	h["X-Amz-Date"] = stamp
	if creds.SessionToken != "" {
		h["X-Amz-Security-Token"] = creds.SessionToken
	}
	// The Host a browser sends leaves out the scheme's default port.
	host := u.Host
	if p := u.Port(); p == "443" && u.Scheme == "https" || p == "80" && u.Scheme == "http" {
		host = u.Hostname()
	}
	canon, signed := canonicalHeaders(h, host)
	payload := sha256Sum(body)
	request := strings.Join([]string{
		method,
		canonicalPath(u),
		canonicalQuery(u.RawQuery),
		canon,
		signed,
		hex.EncodeToString(payload[:]),
	}, "\n")
	scope := day + "/" + region + "/" + service + "/aws4_request"
	reqHash := sha256Sum([]byte(request))
	toSign := sigV4Algorithm + "\n" + stamp + "\n" + scope + "\n" + hex.EncodeToString(reqHash[:])
	key := sigV4Key(creds.SecretKey, day, region, service)
	sig := hex.EncodeToString(hmacSHA256(key, []byte(toSign)))
	h["Authorization"] = sigV4Algorithm + " Credential=" + creds.AccessKeyID + "/" + scope +
		", SignedHeaders=" + signed + ", Signature=" + sig
	return nil
}

// sigV4Key derives the signing key of one day, region and service.
func sigV4Key(secret, day, region, service string) []byte {
	k := hmacSHA256([]byte("AWS4"+secret), []byte(day))
	k = hmacSHA256(k, []byte(region))
	k = hmacSHA256(k, []byte(service))
	return hmacSHA256(k, []byte("aws4_request"))
}

// canonicalHeaders lists h and host as lower-case name:value lines,
// sorted, values trimmed with inner runs of spaces made one; signed is
// the names joined with ";".
func canonicalHeaders(h map[string]string, host string) (canon, signed string) {
	vals := map[string]string{"host": host}
	for k, v := range h {
		vals[strings.ToLower(strings.TrimSpace(k))] = strings.Join(strings.Fields(v), " ")
	}
	names := make([]string, 0, len(vals))
	for k := range vals {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		b.WriteString(n + ":" + vals[n] + "\n")
	}
	return b.String(), strings.Join(names, ";")
}

// canonicalPath encodes each segment of the path as sent once more, as
// every AWS service but S3 expects ("%3A" in a Bedrock model id is signed
// as "%253A").
func canonicalPath(u *url.URL) string {
	p := u.EscapedPath()
	if p == "" {
		return "/"
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = awsEscape(s)
	}
	return strings.Join(segs, "/")
}

// canonicalQuery sorts the query's pairs by name, then value, each
// encoded the AWS way.
func canonicalQuery(raw string) string {
	if raw == "" {
		return ""
	}
	var pairs []string
	for _, kv := range strings.Split(raw, "&") {
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		k, _ = url.QueryUnescape(k)
		v, _ = url.QueryUnescape(v)
		pairs = append(pairs, awsEscape(k)+"="+awsEscape(v))
	}
	sort.Strings(pairs)
	return strings.Join(pairs, "&")
}

// awsEscape percent-encodes every byte but the unreserved A–Z a–z 0–9
// - _ . ~, in upper-case hex.
func awsEscape(s string) string {
	const hexDigits = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hexDigits[c>>4])
		b.WriteByte(hexDigits[c&15])
	}
	return b.String()
}
