import { THEME } from "./protocol.js";

// applyTheme gives <html> the settings' theme: data-theme="light" or "dark"
// overrides the browser's preference, which System (or none) follows.
export function applyTheme(theme) {
  const root = document.documentElement;
  if (theme === THEME.LIGHT || theme === THEME.DARK) root.dataset.theme = theme;
  else delete root.dataset.theme;
}
