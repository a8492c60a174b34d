module github.com/webbrain/webbrain

go 1.26

// npm packages under node_modules may ship Go files; they are not part of
// this module (go list ./..., go mod tidy).
ignore node_modules

require (
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/coder/websocket v1.8.15
	github.com/stretchr/testify v1.11.1
	github.com/tidwall/gjson v1.20.2
)

require (
	github.com/davecgh/go-spew v1.1.1 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.3.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
