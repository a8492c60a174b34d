package llm

import (
	"encoding/hex"
	neturl "net/url"
	"strings"
	"testing"
	"time"
)

// The example credentials and vectors AWS publishes for Signature
// Version 4 (the IAM ListUsers walk-through of the signing documentation
// and the get-vanilla, post-vanilla cases of the SigV4 test suite).
const (
	exampleAccessKey = "AKIDEXAMPLE"
	exampleSecret    = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
)

var exampleTime = time.Date(2015, 8, 30, 12, 36, 0, 0, time.UTC)

func TestSigV4PublishedExamples(t *testing.T) {
	creds := awsCreds{AccessKeyID: exampleAccessKey, SecretKey: exampleSecret}
	for _, tc := range []struct {
		name, method, url, service string
		headers                    map[string]string
		want                       string
	}{
		{"iam ListUsers", "GET", "https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08", "iam",
			map[string]string{"Content-Type": "application/x-www-form-urlencoded; charset=utf-8"},
			"AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7"},
		{"get-vanilla", "GET", "https://example.amazonaws.com/", "service", map[string]string{},
			"AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"},
		{"post-vanilla", "POST", "https://example.amazonaws.com/", "service", map[string]string{},
			"AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.headers
			if err := signV4(tc.method, tc.url, h, nil, creds, "us-east-1", tc.service, exampleTime); err != nil {
				t.Fatal(err)
			}
			if h["Authorization"] != tc.want {
				t.Fatalf("Authorization\n got %s\nwant %s", h["Authorization"], tc.want)
			}
			if h["X-Amz-Date"] != "20150830T123600Z" {
				t.Fatalf("X-Amz-Date = %q", h["X-Amz-Date"])
			}
		})
	}
}

func TestSigV4SigningKey(t *testing.T) {
	// The derived key of the signing documentation's example.
	got := sigV4Key(exampleSecret, "20150830", "us-east-1", "iam")
	const want = "c4afb1cc5771d871763a393e44b703571b55cc28424d1a5e86da6ed3c154a4b9"
	if hexs := hex.EncodeToString(got); hexs != want {
		t.Fatalf("signing key %s, want %s", hexs, want)
	}
}

func TestSigV4SessionTokenAndEscapedPath(t *testing.T) {
	creds := awsCreds{AccessKeyID: exampleAccessKey, SecretKey: exampleSecret, SessionToken: "tok/en=="}
	h := map[string]string{"Content-Type": "application/json", "authorization": "stale"}
	url := "https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse-stream"
	if err := signV4("POST", url, h, []byte(`{}`), creds, "us-east-1", "bedrock", exampleTime); err != nil {
		t.Fatal(err)
	}
	if _, ok := h["authorization"]; ok {
		t.Fatal("a stale authorization header survived")
	}
	if h["X-Amz-Security-Token"] != "tok/en==" ||
		!strings.Contains(h["Authorization"], "SignedHeaders=content-type;host;x-amz-date;x-amz-security-token,") ||
		!strings.Contains(h["Authorization"], "/20150830/us-east-1/bedrock/aws4_request") {
		t.Fatalf("headers %v", h)
	}
	u, _ := neturl.Parse(url)
	if got := canonicalPath(u); got != "/model/anthropic.claude-3-haiku-20240307-v1%253A0/converse-stream" {
		t.Fatalf("canonical path %s", got)
	}
}

func TestSigV4DefaultPortIsNotSigned(t *testing.T) {
	creds := awsCreds{AccessKeyID: exampleAccessKey, SecretKey: exampleSecret}
	a, b := map[string]string{}, map[string]string{}
	_ = signV4("GET", "https://example.amazonaws.com:443/", a, nil, creds, "us-east-1", "service", exampleTime)
	_ = signV4("GET", "https://example.amazonaws.com/", b, nil, creds, "us-east-1", "service", exampleTime)
	if a["Authorization"] != b["Authorization"] {
		t.Fatal("the default port changed the signature")
	}
}
