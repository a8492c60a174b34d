// Tool rows speak the reader's language: each tool belongs to a group with
// its own icon, and a row's main text is a short sentence ("Clicked “Add
// to cart”") instead of the tool's name, which stays in the row's body.

import { N_, locale, t } from "../common/i18n.js";

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

// target says what a sentence names: "element" (the clicked element's name
// from the result), "field" (the field typed into), "host" (args.url),
// "keys" (args.keys). Each text is a message key (i18n.js): doing while the
// tool runs, did when it is done; with a target, doingAt and didAt hold
// $target$, and did is the sentence when the target is unknown.
const tool = (group, doing, did, target, didAt, doingAt) => ({ group, doing, did, target, didAt, doingAt });
const TOOLS = {
  read_page: tool("reading", N_("tool_reading_page"), N_("tool_read_page")),
  get_accessibility_tree: tool("reading", N_("tool_reading_page"), N_("tool_read_page")),
  get_interactive_elements: tool("reading", N_("tool_looking_controls"), N_("tool_looked_controls")),
  get_selection: tool("reading", N_("tool_reading_selection"), N_("tool_read_selection")),
  get_window_info: tool("reading", N_("tool_checking_window"), N_("tool_checked_window")),
  extract_data: tool("reading", N_("tool_extracting"), N_("tool_extracted")),
  get_shadow_dom: tool("reading", N_("tool_reading_component"), N_("tool_read_component")),
  shadow_dom_query: tool("reading", N_("tool_searching_component"), N_("tool_searched_component")),
  fetch_url: tool("reading", N_("tool_fetching"), N_("tool_fetched"), "host", N_("tool_fetched_at"), N_("tool_fetching_at")),
  research_url: tool(
    "reading",
    N_("tool_researching"),
    N_("tool_researched"),
    "host",
    N_("tool_researched_at"),
    N_("tool_researching_at"),
  ),
  verify_form: tool("reading", N_("tool_checking_form"), N_("tool_checked_form")),
  scroll: tool("reading", N_("tool_scrolling"), N_("tool_scrolled")),
  wait_for_stable: tool("reading", N_("tool_waiting_page"), N_("tool_waited_page")),
  wait_for_element: tool("reading", N_("tool_waiting_element"), N_("tool_waited_element")),
  click: tool("clicking", N_("tool_clicking"), N_("tool_clicked"), "element", N_("tool_clicked_at")),
  click_ax: tool("clicking", N_("tool_clicking"), N_("tool_clicked"), "element", N_("tool_clicked_at")),
  hover: tool("clicking", N_("tool_pointing"), N_("tool_pointed"), "element", N_("tool_pointed_at")),
  drag_drop: tool("clicking", N_("tool_dragging"), N_("tool_dragged")),
  type_text: tool("typing", N_("tool_typing"), N_("tool_typed"), "field", N_("tool_typed_at")),
  type_ax: tool("typing", N_("tool_typing"), N_("tool_typed"), "field", N_("tool_typed_at")),
  set_field: tool("typing", N_("tool_filling"), N_("tool_filled"), "field", N_("tool_filled_at")),
  press_keys: tool("typing", N_("tool_pressing"), N_("tool_pressed"), "keys", N_("tool_pressed_at")),
  navigate: tool("navigating", N_("tool_opening"), N_("tool_opened"), "host", N_("tool_opened_at"), N_("tool_opening_at")),
  go_back: tool("navigating", N_("tool_going_back"), N_("tool_went_back")),
  go_forward: tool("navigating", N_("tool_going_forward"), N_("tool_went_forward")),
  new_tab: tool("navigating", N_("tool_opening_tab"), N_("tool_opened_tab")),
  resize_window: tool("navigating", N_("tool_resizing"), N_("tool_resized")),
  list_downloads: tool("files", N_("tool_listing_downloads"), N_("tool_listed_downloads")),
  read_pdf: tool("files", N_("tool_reading_pdf"), N_("tool_read_pdf")),
  download_files: tool("files", N_("tool_downloading"), N_("tool_downloaded_files")),
  download_resource_from_page: tool("files", N_("tool_downloading"), N_("tool_downloaded_file")),
  download_social_media: tool("files", N_("tool_downloading"), N_("tool_downloaded_media")),
  read_downloaded_file: tool("files", N_("tool_reading_download"), N_("tool_read_download")),
  upload_file: tool("files", N_("tool_uploading"), N_("tool_uploaded")),
  get_frames: tool("frames", N_("tool_listing_frames"), N_("tool_listed_frames")),
  promote_iframe: tool("frames", N_("tool_opening_frame"), N_("tool_opened_frame")),
  iframe_read: tool("frames", N_("tool_reading_frame"), N_("tool_read_frame")),
  iframe_click: tool("frames", N_("tool_clicking_frame"), N_("tool_clicked_frame"), "element", N_("tool_clicked_frame_at")),
  iframe_type: tool("frames", N_("tool_typing_frame"), N_("tool_typed_frame"), "field", N_("tool_typed_frame_at")),
  read_page_source: tool("dev", N_("tool_reading_source"), N_("tool_read_source")),
  inspect_element_styles: tool("dev", N_("tool_inspecting_styles"), N_("tool_inspected_styles")),
  inject_css: tool("dev", N_("tool_adding_css"), N_("tool_added_css")),
  remove_injected_css: tool("dev", N_("tool_removing_css"), N_("tool_removed_css")),
  patch_element: tool("dev", N_("tool_patching"), N_("tool_patched")),
  revert_patch: tool("dev", N_("tool_reverting"), N_("tool_reverted")),
  execute_js: tool("dev", N_("tool_running_js"), N_("tool_ran_js")),
  read_console: tool("dev", N_("tool_reading_console"), N_("tool_read_console")),
  inspect_network_requests: tool("dev", N_("tool_inspecting_requests"), N_("tool_inspected_requests")),
  inspect_event_listeners: tool("dev", N_("tool_inspecting_listeners"), N_("tool_inspected_listeners")),
  highlight_element: tool("dev", N_("tool_highlighting"), N_("tool_highlighted")),
  solve_captcha: tool("other", N_("tool_solving_captcha"), N_("tool_solved_captcha")),
  list_webmcp_tools: tool("other", N_("tool_listing_page_tools"), N_("tool_listed_page_tools")),
  execute_webmcp_tool: tool("other", N_("tool_using_page_tool"), N_("tool_used_page_tool")),
  scratchpad_write: tool("other", N_("tool_taking_note"), N_("tool_took_note")),
  progress_update: tool("other", N_("tool_updating_progress"), N_("tool_updated_progress")),
  progress_read: tool("other", N_("tool_reading_progress"), N_("tool_read_progress")),
  schedule_resume: tool("other", N_("tool_scheduling"), N_("tool_scheduled_resume")),
  schedule_task: tool("other", N_("tool_scheduling"), N_("tool_scheduled_task")),
  load_skill: tool("other", N_("tool_loading_skill"), N_("tool_loaded_skill")),
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
  const known = TOOLS[name];
  if (!known) return result === undefined ? t("tool_running_other", { name }) : t("tool_used_other", { name });
  if (result === undefined) {
    const at = known.doingAt && host(argsText);
    return at ? t(known.doingAt, { target: at }) : t(known.doing);
  }
  const target = targetOf(known.target, argsText, result);
  return target ? t(known.didAt, { target }) : t(known.did);
}

function targetOf(kind, argsText, result) {
  switch (kind) {
    case "element":
      // The content script writes `Clicked <kind> "<name>" [ref]`.
      return parse(result.match(/^Clicked [\w-]+ ("(?:[^"\\]|\\.)*")/)?.[1]);
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
  const n = (v, digits) => v.toLocaleString(locale(), { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return ms < 1000 ? t("duration_ms", { ms: n(Math.round(ms), 0) }) : t("duration_s", { s: n(ms / 1000, 1) });
}
