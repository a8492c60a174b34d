module github.com/webbrain/webbrain

go 1.26
