/**
 * Fills a webhook's body template: each `{{path.to.field}}` (or `{{{...}}}`, as in Mustache) becomes
 * that field of the context, text as is, anything else as JSON, and an absent one nothing. Only
 * Mustache's variables, no sections or escaping (docs/webhooks.md#body-template): the body is
 * usually JSON, where HTML escaping would only garble the values.
 */
export function renderBodyTemplate(template: string, context: Record<string, unknown>): string {
  return template.replace(/\{\{\{?\s*([\w.-]+)\s*\}?\}\}/g, (_, path: string) => {
    let value: unknown = context;
    for (const key of path.split(".")) {
      value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
    }
    if (value === undefined || value === null) return "";
    return typeof value === "string" ? value : JSON.stringify(value);
  });
}
