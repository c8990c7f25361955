import DOMPurify from "dompurify";
import { marked } from "marked";
import { useMemo } from "react";

// Links from markdown open elsewhere without handing this page to the target.
DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A" && node.getAttribute("href")) node.setAttribute("rel", "noopener noreferrer");
});

/**
 * Markdown as HTML with everything active taken out: DOMPurify drops scripts, event handlers and
 * `javascript:` URLs, and forms and styles have no place in a banner.
 */
export function toSafeHtml(text: string, inline = false): string {
  const html = inline ? marked.parseInline(text, { async: false }) : marked.parse(text, { async: false });
  return DOMPurify.sanitize(html, { FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select"], FORBID_ATTR: ["style"] });
}

export function Markdown({ text, inline = false, className }: { text: string; inline?: boolean; className?: string }) {
  const html = useMemo(() => toSafeHtml(text, inline), [text, inline]);
  const Tag = inline ? "span" : "div";
  return <Tag className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
