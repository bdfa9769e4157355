/**
 * Text into HTML and SVG: every value of a report comes from the portal or HR files, so a name
 * like `<script>` must show as text, in element content and in attribute values alike.
 */

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * The characters XML forbids: control characters other than tab, line feed and carriage return,
 * and U+FFFE/U+FFFF. One in a chart's SVG makes the PNG renderer refuse the whole chart (its
 * parser is XML's), and a browser shows a NUL as U+FFFD anyway.
 */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** `text` with every character XML forbids replaced by U+FFFD, the replacement character. */
export function xmlSafe(text: string): string {
  return text.replace(NOT_XML, "\uFFFD");
}

/** `text` with &, <, >, " and ' replaced by entities, and what XML forbids by U+FFFD. */
export function escapeHtml(text: string): string {
  return xmlSafe(text).replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}
