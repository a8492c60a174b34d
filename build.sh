#!/usr/bin/env bash
# build.sh: build, run, test and benchmark the WebBrain extension.
#
#   ./build.sh        build dist/chrome, dist/firefox and their packages
#   ./build.sh run    build, then start Chromium with the extension loaded
#   ./build.sh test   install what is missing, then run every test
#   ./build.sh content DIR
#                     only the content scripts, bundled into DIR (the
#                     browser suites inject what this writes)
#   ./build.sh bench  module size and what takes it, worker wake and round
#                     trips beside a plain JS worker, and the Go benchmarks
#                     (WEBBRAIN_CORPUS=dir adds those over the saved-page corpus)
set -euo pipefail

CALLER_DIR=$PWD
cd "$(dirname "${BASH_SOURCE[0]}")"
ROOT=$PWD
VERSION=$(tr -d '[:space:]' <VERSION)
DIST=$ROOT/dist
CHROMIUM=/usr/bin/chromium
# wasmbrowsertest runs the js/wasm tests in headless Chromium.
WASMBROWSERTEST_VERSION=v0.11.0
# esbuild (an npm devDependency of vendor-js) bundles the content scripts.
ESBUILD=$ROOT/vendor-js/node_modules/.bin/esbuild
# Biome (also a devDependency of vendor-js) formats and lints the JS;
# biome.jsonc says which files and how.
BIOME=$ROOT/vendor-js/node_modules/.bin/biome

log() { printf '==> %s\n' "$*" >&2; }

# apt_ensure installs the Debian packages that are missing, with one
# apt-get update, and does nothing when all are there.
apt_ensure() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing ${missing[*]}"
	local sudo=()
	[ "$(id -u)" -eq 0 ] || sudo=(sudo)
	"${sudo[@]}" apt-get update -qq
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# npm_ci runs `npm ci` in dir unless node_modules already matches its lock file.
npm_ci() {
	local dir=$1 stamp=$1/node_modules/.webbrain-lock
	if [ -f "$stamp" ] && cmp -s "$dir/package-lock.json" "$stamp"; then
		return 0
	fi
	log "npm ci in ${dir#"$ROOT"/}"
	npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error >/dev/null
	cp "$dir/package-lock.json" "$stamp"
}

# set_version prints manifest $1 with its version replaced by VERSION.
set_version() {
	node -e '
		const fs = require("fs");
		const m = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
		m.version = process.argv[2];
		process.stdout.write(JSON.stringify(m, null, 2) + "\n");
	' "$1" "$VERSION"
}

# bundle_content writes the two scripts the background injects into a tab
# to $1: accessibility-tree.js and content.js, and click-listeners.js, which
# the manifests run in the page's own world before its scripts
# (docs/decisions/click-listeners.md). esbuild bundles each from its entry
# module in extension/content/ with the modules it imports into one
# function that runs at once (an IIFE), so none of their names reaches the
# page's or the content scripts' global scope
# (docs/decisions/content-modules.md).
bundle_content() {
	local out=$1
	mkdir -p "$out"
	esbundle extension/content/accessibility-tree.mjs "$out/accessibility-tree.js"
	esbundle extension/content/main.mjs "$out/content.js"
	esbundle extension/content/click-listeners.mjs "$out/click-listeners.js"
}

# bundle_panel replaces the side panel's two entry modules in $1
# (sidepanel.js and early.js, which sidepanel.html loads) with esbuild
# bundles of them and the modules they import: one fetch instead of a
# waterfall of thirty (docs/decisions/panel-startup.md). What both import
# goes into a shared chunk, so the module early.js starts is the one
# sidepanel.js reads. The separate modules stay for the pages that import
# some of them (traces imports history.js).
bundle_panel() {
	"$ESBUILD" extension/sidepanel/sidepanel.js extension/sidepanel/early.js --bundle --format=esm --splitting \
		--charset=utf8 --chunk-names='chunks/[name]-[hash]' --allow-overwrite --log-level=warning --outdir="$1"
	node --check "$1/sidepanel.js"
}

esbundle() {
	"$ESBUILD" "$1" --bundle --format=iife --charset=utf8 --banner:js='"use strict";' \
		--log-level=warning --outfile="$2"
	node --check "$2"
}

# assemble lays out dist/$1 from the one source of every file.
assemble() {
	local b=$1 out=$DIST/$1
	rm -rf "$out"
	mkdir -p "$out/vendor"
	# Shipped compressed: background.js decompresses it as it compiles.
	cp "$DIST/webbrain.wasm.gz" "$out/webbrain.wasm.gz"
	cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" "$out/"
	cp jsglue/*.js "$out/"
	# The worker keeps a decompressed copy of the module under its hash
	# (docs/decisions/wake-and-size.md).
	local id
	id=$(sha256sum "$DIST/webbrain.wasm" | cut -d' ' -f1)
	sed -i "s/^const MODULE_ID = \"\";/const MODULE_ID = \"$id\";/" "$out/background.js"
	grep -q "^const MODULE_ID = \"$id\";" "$out/background.js" || { log "background.js has no MODULE_ID line to write the module's hash into"; exit 1; }
	cp -R extension/. "$out/"
	rm "$out"/content/*.mjs # the modules, bundled next
	bundle_content "$out/content"
	# The selection toolbar, which the manifests inject into every page
	# (docs/decisions/selection-toolbar.md).
	esbundle extension/content/selection.mjs "$out/content/selection.js"
	bundle_panel "$out/sidepanel"
	# Browser-only files, the manifest among them, sit in chrome/ or firefox/.
	cp -R "$b/." "$out/"
	# Chrome names Tagalog "fil", Firefox "tl": the Firefox build carries both
	# folders, so either name finds it (docs/decisions/localisation.md).
	if [ "$b" = firefox ] && [ -d "$out/_locales/fil" ]; then
		cp -R "$out/_locales/fil" "$out/_locales/tl"
	fi
	set_version "$b/manifest.json" >"$out/manifest.json"
	local f
	while IFS= read -r f || [ -n "$f" ]; do
		[ -z "$f" ] && continue
		cp "vendor-js/node_modules/$f" "$out/vendor/"
	done <vendor-js/files.txt
}

# check_manifest fails when dist/$1's manifest names a file the build did
# not produce: the browser would refuse the whole extension.
check_manifest() {
	node -e '
		const fs = require("fs"), path = require("path");
		const dir = process.argv[1];
		const m = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8"));
		const files = [
			m.background?.service_worker, ...(m.background?.scripts ?? []),
			m.side_panel?.default_path, m.sidebar_action?.default_panel, m.options_ui?.page,
			...(m.content_scripts ?? []).flatMap((c) => [...(c.js ?? []), ...(c.css ?? [])]),
			...Object.values(m.icons ?? {}),
		].filter(Boolean);
		const missing = files.filter((f) => !fs.existsSync(path.join(dir, f)));
		if (missing.length) {
			console.error(`${dir}: the manifest names files the build did not produce: ${missing.join(", ")}`);
			process.exit(1);
		}
		// Every __MSG_name__ must be in the default locale, or the browser
		// refuses the extension.
		const catalog = path.join(dir, "_locales", m.default_locale ?? "", "messages.json");
		const names = [...JSON.stringify(m).matchAll(/__MSG_(\w+)__/g)].map((x) => x[1]);
		if (names.length && !fs.existsSync(catalog)) {
			console.error(`${dir}: the manifest uses __MSG_ names without default_locale messages`);
			process.exit(1);
		}
		const messages = names.length ? JSON.parse(fs.readFileSync(catalog, "utf8")) : {};
		const unknown = names.filter((n) => !messages[n]);
		if (unknown.length) {
			console.error(`${dir}: the manifest names messages ${catalog} lacks: ${unknown.join(", ")}`);
			process.exit(1);
		}
	' "$DIST/$1"
}

build() {
	apt_ensure zip
	command -v npm >/dev/null || apt_ensure nodejs npm
	npm_ci "$ROOT/vendor-js"
	mkdir -p "$DIST"
	log "building webbrain.wasm"
	GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o "$DIST/webbrain.wasm" ./wasm/cmd/webbrain
	gzip -9 -n -k -f "$DIST/webbrain.wasm"
	assemble chrome
	assemble firefox
	check_manifest chrome
	check_manifest firefox
	rm -f "$DIST"/webbrain-*.zip "$DIST"/webbrain-*.xpi
	(cd "$DIST/chrome" && zip -qrX "$DIST/webbrain-chrome-$VERSION.zip" .)
	(cd "$DIST/firefox" && zip -qrX "$DIST/webbrain-firefox-$VERSION.xpi" .)
	log "built dist/chrome, dist/firefox, dist/webbrain-chrome-$VERSION.zip, dist/webbrain-firefox-$VERSION.xpi"
}

ollama_answers() {
	(exec 3<>/dev/tcp/127.0.0.1/11434) 2>/dev/null
}

run() {
	build
	if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
		cat <<EOF
No display here (\$DISPLAY and \$WAYLAND_DISPLAY are empty), so Chromium is not started.
Load the extension by hand in Chrome or Chromium on a machine with a screen:
  chrome://extensions -> Developer mode (top right) -> Load unpacked -> $DIST/chrome
EOF
		exit 0
	fi
	apt_ensure chromium
	if ! ollama_answers; then
		echo "Nothing answers on 127.0.0.1:11434, the default provider (Ollama). Start it with"
		echo "  OLLAMA_ORIGINS='chrome-extension://*,moz-extension://*' ollama serve"
		echo "or choose another provider in WebBrain's settings."
	fi
	echo "Open the WebBrain panel with its toolbar button (puzzle piece -> pin WebBrain) or Alt+Shift+W."
	local flags=(--user-data-dir="$ROOT/.cache/chromium-profile" --no-first-run
		--load-extension="$DIST/chrome" --disable-features=DisableLoadExtensionCommandLineSwitch)
	[ "$(id -u)" -eq 0 ] && flags+=(--no-sandbox)
	mkdir -p "$ROOT/.cache"
	exec "$CHROMIUM" "${flags[@]}" "https://example.com/"
}

install_test_tools() {
	# chromium-l10n: the interface languages besides en-US, for the test of a
	# browser started in Spanish (test/e2e/i18n_test.go).
	apt_ensure chromium chromium-l10n firefox-esr zip ca-certificates
	local bin
	bin="$(go env GOPATH)/bin/wasmbrowsertest"
	if [ ! -x "$bin" ]; then
		log "installing wasmbrowsertest $WASMBROWSERTEST_VERSION"
		go install "github.com/agnivade/wasmbrowsertest@$WASMBROWSERTEST_VERSION"
	fi
	npm_ci "$ROOT/vendor-js"
	local lock
	while IFS= read -r lock; do
		npm_ci "$(dirname "$lock")"
	done < <(find test -name package-lock.json -not -path '*/node_modules/*' | sort)
}

# Test steps run one after another; a failure is recorded and the rest
# still run, so one run shows everything that is broken. Each step runs in a
# subshell with errexit on: inside `if` or `||` bash would ignore it.
failed=()
step() {
	local name=$1 rc
	shift
	log "$name"
	set +e
	(
		set -e
		"$@"
	)
	rc=$?
	set -e
	[ "$rc" -eq 0 ] || failed+=("$name")
}

# content_parts_check parses each module of the content scripts on its
# own: none leans on names another one defines.
content_parts_check() {
	local f
	for f in extension/content/*.mjs; do
		node --check "$f"
	done
}

go_files() {
	find . \( -name node_modules -o -name dist -o -name .cache -o -name .git \) -prune -o -name '*.go' -print
}

gofmt_check() {
	local bad
	bad=$(go_files | xargs gofmt -l)
	[ -z "$bad" ] && return 0
	echo "gofmt would change:" && echo "$bad"
	return 1
}

# js_lint fails on any Biome finding (warnings too) and on any JS file the
# formatter would change; vendor-js/node_modules/.bin/biome format --write .
# reformats them. biome.jsonc picks the files: extension/, jsglue/ and the
# test JS, not node_modules, dist/ or vendored files
# (docs/decisions/js-lint.md).
js_lint() {
	"$BIOME" ci --error-on-warnings --colors=off .
}

# go_mod_tidy_check fails when go.mod or go.sum differ from what
# `go mod tidy` would make of them, and shows the difference.
go_mod_tidy_check() {
	go mod tidy -diff && return 0
	echo "go.mod/go.sum are not tidy: run go mod tidy"
	return 1
}

# js_test_packages lists the packages under wasm/ with js-tagged tests.
js_test_packages() {
	grep -rlE --include='*_test.go' '^//go:build .*\bjs\b' wasm | xargs -r -n1 dirname | sort -u | sed 's|^|./|'
}

# go_pkgs lists the packages that match, leaving out npm's node_modules:
# the go tool walks into them, and some npm packages ship Go files.
go_pkgs() {
	go list "$@" | { grep -v '/node_modules/' || true; }
}

# go_each runs `go <verb> [flags]` on the packages go_pkgs finds for the
# tags and pattern, and succeeds when none match (an absent suite).
go_each() {
	local verb=$1 tags=$2 pattern=$3 pkgs
	mapfile -t pkgs < <(go_pkgs -tags "$tags" "$pattern")
	if [ ${#pkgs[@]} -eq 0 ]; then
		log "no packages match $pattern with tags '$tags'"
		return 0
	fi
	# $verb may carry flags ("test -v").
	# shellcheck disable=SC2086
	go $verb -tags "$tags" "${pkgs[@]}"
}

# e2e_tests runs the end-to-end suites one package at a time, verbosely.
# A package that passes shows its result and the figures it reports
# (survival, injection suite, exactly-once, three stops); one that fails
# shows its whole output, so every got/want is there.
e2e_tests() {
	local out pkg pkgs rc=0
	mapfile -t pkgs < <(go_pkgs -tags e2e ./test/...)
	out=$(mktemp)
	for pkg in "${pkgs[@]}"; do
		# go test's default 10-minute limit is too tight for the durable
		# suite on a busy two-core machine.
		if go test -v -timeout 30m -tags e2e "$pkg" >"$out" 2>&1; then
			grep -E '^(ok|survival:|injection suite:|exactly-once:|three stops:)' "$out" || true
		else
			rc=1
			cat "$out"
		fi
	done
	rm -f "$out"
	return "$rc"
}

# wasm_test runs the js/wasm tests in Chromium; wasmbrowsertest logs a line
# per unknown CDP enum value of newer Chromium, which says nothing here.
wasm_test() {
	GOOS=js GOARCH=wasm go test -p 1 -exec="$(go env GOPATH)/bin/wasmbrowsertest" "$@" 2>&1 |
		{ grep -v 'unknown IPAddressSpace' || true; }
}

run_tests() {
	install_test_tools
	step "gofmt" gofmt_check
	step "js lint (biome)" js_lint
	step "go mod tidy" go_mod_tidy_check
	step "go vet (native)" go_each vet "" ./...
	step "go vet (js/wasm)" env GOOS=js GOARCH=wasm go vet ./wasm/...
	step "go test (native)" go_each test "" ./...
	step "node --test jsglue" node --test jsglue/
	step "node --check content parts" content_parts_check
	local pkgs
	mapfile -t pkgs < <(js_test_packages)
	if [ ${#pkgs[@]} -gt 0 ]; then
		step "go test (js/wasm in Chromium)" wasm_test "${pkgs[@]}"
	fi
	step "build" build
	# Browser suites one package at a time: two browsers at once on a
	# small machine make timing-sensitive tests flaky.
	step "go test -tags browser" go_each "test -p 1 -timeout 30m" browser ./test/...
	step "go test -tags firefox" go_each "test -p 1 -timeout 30m" firefox ./test/firefox/...
	# e2e suites live in test/e2e and beside it (test/durable).
	step "go test -tags e2e" e2e_tests
	if [ ${#failed[@]} -gt 0 ]; then
		log "FAILED: ${failed[*]}"
		exit 1
	fi
	log "all test steps passed"
}

bench() {
	build
	# The saved-page corpus is not in the repository.
	[ -n "${WEBBRAIN_CORPUS:-}" ] ||
		log "WEBBRAIN_CORPUS is not set: the benchmarks over the whole saved-page corpus (accessibility tree, BenchmarkHTMLTextCorpus) are skipped"
	local raw gz
	raw=$(stat -c %s "$DIST/webbrain.wasm")
	gz=$(stat -c %s "$DIST/webbrain.wasm.gz")
	awk -v r="$raw" -v g="$gz" 'BEGIN { printf "webbrain.wasm: %d bytes (%.2f MB), shipped gzip -9: %d bytes (%.2f MB)\n", r, r/1e6, g, g/1e6 }'
	# What takes the space: the same module built with its function names.
	local named
	named=$(mktemp --suffix=.wasm)
	GOOS=js GOARCH=wasm go build -trimpath -ldflags="-w" -o "$named" ./wasm/cmd/webbrain
	go run ./test/bench/wasmsize -top 25 "$named"
	rm -f "$named"
	go run ./test/bench/startup -ext "$DIST/chrome" -n 20
	# The same wake counted in instructions (Node under callgrind), which the
	# machine's load does not change.
	if command -v valgrind >/dev/null; then
		go run ./test/bench/wakecount "$DIST/webbrain.wasm"
	else
		log "valgrind is not installed: the instruction count of a wake (test/bench/wakecount) is skipped"
	fi
	npm_ci "$ROOT/test/firefox"
	# A start after an install, and a start with the module copy the first kept.
	go test -tags firefox -count=1 -run TestFirefoxStartupBench -v ./test/firefox -args -bench-startup
	go test -tags firefox -count=1 -run TestFirefoxStartupBench -v ./test/firefox -args -bench-startup -kept
	if [ -f test/bench/axtree/bench.mjs ]; then
		npm_ci "$ROOT/test/bench/axtree"
		node test/bench/axtree/bench.mjs
		node test/bench/axtree/listeners.mjs
	fi
	go test -run '^$' -bench . ./wasm/...
}

case "${1:-build}" in
build) build ;;
run) run ;;
test) run_tests ;;
content)
	command -v npm >/dev/null || apt_ensure nodejs npm
	npm_ci "$ROOT/vendor-js"
	out=${2:?usage: $0 content DIR}
	[[ $out = /* ]] || out=$CALLER_DIR/$out
	bundle_content "$out"
	;;
bench) bench ;;
*)
	echo "usage: $0 [build|run|test|bench|content DIR]" >&2
	exit 2
	;;
esac
