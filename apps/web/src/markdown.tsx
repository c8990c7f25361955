import DOMPurify from "dompurify";
import { marked } from "marked";
import { useMemo } from "react";

DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  // Links from markdown open elsewhere without handing this page to the target.
  if (node.tagName === "A" && node.getAttribute("href")) node.setAttribute("rel", "noopener noreferrer");
  // An image the author gave no text is taken as decoration, so screen readers skip it.
  if (node.tagName === "IMG" && !node.hasAttribute("alt")) node.setAttribute("alt", "");
});

/**
 * Markdown as HTML with everything active taken out: DOMPurify drops scripts, event handlers and
 * `javascript:` URLs, and forms and styles have no place in a banner.
 */
function toSafeHtml(text: string, inline = false): string {
  const html = inline ? marked.parseInline(text, { async: false }) : marked.parse(text, { async: false });
  return DOMPurify.sanitize(html, { FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select"], FORBID_ATTR: ["style"] });
}

export function Markdown({ text, inline = false, className }: { text: string; inline?: boolean; className?: string }) {
  const html = useMemo(() => toSafeHtml(text, inline), [text, inline]);
  const Tag = inline ? "span" : "div";
  return <Tag className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
