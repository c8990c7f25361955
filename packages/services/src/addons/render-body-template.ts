/**
 * Fills a webhook's body template: each `{{path.to.field}}` (or `{{{...}}}`, as in Mustache) becomes
 * that field of the context, text as is, anything else as JSON, and an absent one nothing. Only
 * Mustache's variables, no sections or HTML escaping (docs/webhooks.md#body-template): when the body
 * is JSON, text is inserted JSON-escaped instead, so that a quote or a backslash in a flag's name or
 * description still leaves the body valid JSON.
 */
export function renderBodyTemplate(template: string, context: Record<string, unknown>, json: boolean): string {
  return template.replace(/\{\{\{?\s*([\w.-]+)\s*\}?\}\}/g, (_, path: string) => {
    let value: unknown = context;
    for (const key of path.split(".")) {
      value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
    }
    if (value === undefined || value === null) return "";
    if (typeof value !== "string") return JSON.stringify(value);
    return json ? JSON.stringify(value).slice(1, -1) : value;
  });
}
