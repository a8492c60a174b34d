// The Skills section of the settings page: WebBrain's skills (listed) and
// the user's own (written, imported, exported, turned off or deleted),
// through the background's skill actions.
import { send } from "../common/api.js";
import { el } from "../common/dom.js";
import { initI18n, t } from "../common/i18n.js";
import { ACTION } from "../common/protocol.js";

await initI18n();

const $ = (id) => document.getElementById(id);

function apply(reply) {
  const error = $("skills-error");
  if (!reply.ok) {
    error.textContent = reply.error;
    error.hidden = false;
    return false;
  }
  error.hidden = true;
  $("skills-list").replaceChildren(...(reply.skills ?? []).map(row));
  return true;
}

function row(s) {
  const li = el(
    "li",
    { className: "skill-row", "data-id": s.id },
    el("strong", { text: s.name || s.id }),
    el("span", {
      className: "help",
      text: ` ${s.packaged ? t("settings_skill_packaged") : t("settings_skill_yours")} · ${(s.modes ?? []).join(", ")}`,
    }),
    el("div", { className: "help", text: s.error ? t("settings_skill_not_offered", { error: s.error }) : s.summary }),
  );
  // What the skill's tools would reach, so the user sees it before using it.
  if (s.tools?.length)
    li.append(el("div", { className: "help skill-tools", text: t("settings_skill_tools", { list: s.tools.join("; ") }) }));
  if (s.packaged) return li;
  const enabled = el("input", { type: "checkbox", checked: s.enabled, "aria-label": t("settings_use_label", { name: s.id }) });
  enabled.addEventListener("change", async () => {
    apply(await send({ action: ACTION.SKILL_SAVE, skill: { id: s.id, markdown: s.markdown, enabled: enabled.checked } }));
  });
  const edit = el("button", { type: "button", text: t("settings_edit") });
  edit.addEventListener("click", () => {
    $("skill-id").value = s.id;
    $("skill-md").value = s.markdown;
    $("skill-md").focus();
  });
  const exportLink = el("a", {
    href: URL.createObjectURL(new Blob([exported(s)], { type: "text/markdown" })),
    download: `${s.id}.md`,
    text: t("settings_export"),
  });
  const del = el("button", { type: "button", className: "danger", text: t("settings_delete") });
  del.addEventListener("click", async () => {
    apply(await send({ action: ACTION.SKILL_DELETE, id: s.id }));
  });
  li.append(el("div", { className: "row" }, el("label", {}, enabled, " Use"), edit, exportLink, del));
  return li;
}

// exported is the file Export saves: the skill's Markdown under Agent
// Skills front matter (name, description), so other tools read it as a
// SKILL.md and importing it here gives the same skill. Markdown that has
// front matter already is saved as it is.
function exported(s) {
  if (s.markdown.startsWith("---\n") || !s.name) return s.markdown;
  const line = (v) => JSON.stringify(v.replace(/\s+/g, " ").trim());
  return `---\nname: ${line(s.name)}\ndescription: ${line(s.summary ?? "")}\n---\n\n${s.markdown}`;
}

$("skill-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const skill = { id: $("skill-id").value.trim(), markdown: $("skill-md").value, enabled: true };
  if (apply(await send({ action: ACTION.SKILL_SAVE, skill }))) {
    $("skill-id").value = "";
    $("skill-md").value = "";
  }
});

$("skill-import").addEventListener("click", () => $("skill-file").click());
$("skill-file").addEventListener("change", async (e) => {
  const file = e.target.files?.[0];
  e.target.value = "";
  if (!file) return;
  // A file is named by its file name; a SKILL.md (named by its folder) by
  // its front matter's name.
  const text = await file.text();
  const slug = (s) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-")
      .replace(/^-+|-+$/g, "");
  let id = slug(file.name.replace(/\.md$/i, ""));
  if (id === "skill") id = slug(text.match(/^---\r?\n(?:(?!---).*\r?\n)*?name:\s*["']?([^"'\r\n]+)/)?.[1] ?? "");
  $("skill-id").value = id;
  $("skill-md").value = text;
  $("skill-id").focus();
});

send({ action: ACTION.SKILLS_LIST }).then(apply);
