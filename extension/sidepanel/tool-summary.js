// Tool rows speak the reader's language: each tool belongs to a group with
// its own icon, and a row's main text is a short sentence ("Clicked “Add
// to cart”") instead of the tool's name, which stays in the row's body.

const SVG = "http://www.w3.org/2000/svg";

// One 16×16 stroked path per group, drawn here: the panel loads no remote
// assets and the icons follow the text colour in both themes.
const ICONS = {
  reading: "M3 2h7l3 3v9H3z M5.5 7h5 M5.5 9.5h5 M5.5 12h3",
  clicking: "M4 2v11l3-3 2.5 4.5 1.6-.8L8.6 9.3H13z",
  typing: "M1.5 4.5h13v7h-13z M4 7h1 M7 7h2 M11 7h1 M5 9.5h6",
  navigating: "M8 1.5a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13 M5 8h6 M8.5 5.5 11 8l-2.5 2.5",
  files: "M8 2v8 M5 7l3 3 3-3 M3 12.5h10",
  frames: "M1.5 2.5h13v11h-13z M5 6h6.5v5H5z",
  dev: "M5.5 4 2 8l3.5 4 M10.5 4 14 8l-3.5 4",
  other: "M8 3a5 5 0 1 0 0 10a5 5 0 1 0 0-10 M8 6v2.5l1.8 1.2",
};

// target says what follows the verb: "element" (the clicked element's name
// from the result), "field" (the field typed into), "host" (args.url),
// "keys" (args.keys).
const t = (group, doing, did, target) => ({ group, doing, did, target });
const TOOLS = {
  read_page: t("reading", "Reading the page", "Read the page"),
  get_accessibility_tree: t("reading", "Reading the page", "Read the page"),
  get_interactive_elements: t("reading", "Looking for controls", "Looked for controls on the page"),
  get_selection: t("reading", "Reading the selection", "Read the selection"),
  get_window_info: t("reading", "Checking the window", "Checked the window"),
  extract_data: t("reading", "Extracting data", "Extracted data from the page"),
  get_shadow_dom: t("reading", "Reading a component", "Read a page component"),
  shadow_dom_query: t("reading", "Searching a component", "Searched a page component"),
  fetch_url: t("reading", "Fetching", "Fetched", "host"),
  research_url: t("reading", "Researching", "Researched", "host"),
  verify_form: t("reading", "Checking the form", "Checked the form"),
  scroll: t("reading", "Scrolling", "Scrolled the page"),
  wait_for_stable: t("reading", "Waiting for the page", "Waited for the page to settle"),
  wait_for_element: t("reading", "Waiting for an element", "Waited for an element"),
  click: t("clicking", "Clicking", "Clicked", "element"),
  click_ax: t("clicking", "Clicking", "Clicked", "element"),
  hover: t("clicking", "Pointing", "Pointed at", "element"),
  drag_drop: t("clicking", "Dragging", "Dragged an element"),
  type_text: t("typing", "Typing", "Typed into", "field"),
  type_ax: t("typing", "Typing", "Typed into", "field"),
  set_field: t("typing", "Filling a field", "Filled", "field"),
  press_keys: t("typing", "Pressing", "Pressed", "keys"),
  navigate: t("navigating", "Opening", "Opened", "host"),
  go_back: t("navigating", "Going back", "Went back"),
  go_forward: t("navigating", "Going forward", "Went forward"),
  new_tab: t("navigating", "Opening a tab", "Opened a new tab"),
  resize_window: t("navigating", "Resizing the window", "Resized the window"),
  list_downloads: t("files", "Listing downloads", "Listed the downloads"),
  read_pdf: t("files", "Reading the PDF", "Read the PDF"),
  download_files: t("files", "Downloading", "Downloaded files"),
  download_resource_from_page: t("files", "Downloading", "Downloaded a file from the page"),
  download_social_media: t("files", "Downloading", "Downloaded media"),
  read_downloaded_file: t("files", "Reading a download", "Read a downloaded file"),
  upload_file: t("files", "Uploading", "Uploaded a file"),
  get_frames: t("frames", "Listing frames", "Listed the page's frames"),
  promote_iframe: t("frames", "Opening a frame", "Opened a frame"),
  iframe_read: t("frames", "Reading a frame", "Read a frame"),
  iframe_click: t("frames", "Clicking in a frame", "Clicked in a frame", "element"),
  iframe_type: t("frames", "Typing in a frame", "Typed in a frame into", "field"),
  read_page_source: t("dev", "Reading the source", "Read the page source"),
  inspect_element_styles: t("dev", "Inspecting styles", "Inspected styles"),
  inject_css: t("dev", "Adding CSS", "Added CSS to the page"),
  remove_injected_css: t("dev", "Removing CSS", "Removed the added CSS"),
  patch_element: t("dev", "Patching", "Patched an element"),
  revert_patch: t("dev", "Reverting", "Reverted a patch"),
  execute_js: t("dev", "Running JavaScript", "Ran JavaScript"),
  read_console: t("dev", "Reading the console", "Read the console"),
  inspect_network_requests: t("dev", "Inspecting requests", "Inspected network requests"),
  inspect_event_listeners: t("dev", "Inspecting listeners", "Inspected event listeners"),
  highlight_element: t("dev", "Highlighting", "Highlighted an element"),
  solve_captcha: t("other", "Solving the CAPTCHA", "Solved the CAPTCHA"),
  list_webmcp_tools: t("other", "Listing the page's tools", "Listed the page's tools"),
  execute_webmcp_tool: t("other", "Using a page tool", "Used a page tool"),
  scratchpad_write: t("other", "Taking a note", "Took a note"),
  progress_update: t("other", "Updating progress", "Updated progress"),
  progress_read: t("other", "Reading progress", "Read progress"),
  schedule_resume: t("other", "Scheduling", "Scheduled a resume"),
  schedule_task: t("other", "Scheduling", "Scheduled a task"),
  load_skill: t("other", "Loading a skill", "Loaded a skill"),
};

const NAME_MAX = 40;

export function toolGroup(name) {
  return TOOLS[name]?.group ?? "other";
}

export function toolIcon(name) {
  const group = toolGroup(name);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", `tool-icon tool-icon-${group}`);
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", ICONS[group]);
  svg.append(path);
  return svg;
}

// toolSummary is the row's sentence. result is the reader's text of the
// result (boundary removed), or undefined while the tool runs.
export function toolSummary(name, argsText, result) {
  const tool = TOOLS[name];
  if (!tool) return result === undefined ? `Running ${name}` : `Used ${name}`;
  if (result === undefined) return tool.target === "host" ? `${tool.doing} ${host(argsText) ?? ""}`.trim() : tool.doing;
  const target = targetOf(tool.target, argsText, result);
  if (target) return `${tool.did} ${target}`;
  if (tool.target === "element") return `${tool.did} an element`;
  if (tool.target === "field") return `${tool.did} a field`;
  return tool.did;
}

function targetOf(kind, argsText, result) {
  switch (kind) {
    case "element":
      // The content script writes `Clicked <kind> "<name>" [ref]`.
      return quoted(result.match(/^Clicked [\w-]+ ("(?:[^"\\]|\\.)*")/)?.[1]);
    case "field":
      // and `Typed … into <kind> "<name>"`.
      return parse(result.match(/ into [\w-]+ ("(?:[^"\\]|\\.)*")/)?.[1]);
    case "host":
      return host(argsText);
    case "keys":
      return args(argsText)?.keys || null;
    default:
      return null;
  }
}

// The name is the page's text: a short plain string, never markup.
function parse(json) {
  if (!json) return null;
  try {
    const s = JSON.parse(json);
    return typeof s === "string" && s.trim() ? clip(s.trim()) : null;
  } catch {
    return null;
  }
}

function quoted(json) {
  const s = parse(json);
  return s ? `“${s}”` : null;
}

function clip(s) {
  return s.length > NAME_MAX ? `${s.slice(0, NAME_MAX - 1)}…` : s;
}

function args(text) {
  try {
    const a = JSON.parse(text);
    return a && typeof a === "object" ? a : null;
  } catch {
    return null;
  }
}

function host(argsText) {
  const url = args(argsText)?.url;
  if (typeof url !== "string") return null;
  try {
    return new URL(url).hostname || null;
  } catch {
    return null;
  }
}

// formatDuration: "350 ms" under a second, "2.4 s" after.
export function formatDuration(ms) {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
