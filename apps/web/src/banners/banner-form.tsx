import { useState, type FormEvent } from "react";
import { FormError } from "../form-error.tsx";
import { type Banner, type BannerLook, BannerView } from "./banner-view.tsx";

export type BannerFields = BannerLook & { enabled: boolean };

const EMPTY: BannerFields = {
  message: "",
  enabled: true,
  variant: "info",
  sticky: false,
  icon: null,
  link: null,
  linkText: null,
  dialogTitle: null,
  dialog: null,
};
const orNull = (value: string) => (value === "" ? null : value);
/** Only the fields a client writes: the API refuses `id` and `createdAt` in a body. */
const writable = ({ message, enabled, variant, sticky, icon, link, linkText, dialogTitle, dialog }: BannerFields): BannerFields => ({
  message,
  enabled,
  variant,
  sticky,
  icon,
  link,
  linkText,
  dialogTitle,
  dialog,
});

/** Create or edit a banner, with the banner shown live as it will look. */
export function BannerForm(props: {
  initial?: Banner;
  busy: boolean;
  error: unknown;
  onSave(fields: BannerFields): void;
  onCancel?(): void;
}) {
  const [fields, setFields] = useState<BannerFields>(props.initial ? writable(props.initial) : EMPTY);
  const set = <K extends keyof BannerFields>(key: K, value: BannerFields[K]) => setFields((f) => ({ ...f, [key]: value }));
  const text = (key: "icon" | "link" | "linkText" | "dialogTitle" | "dialog") => ({
    value: fields[key] ?? "",
    onChange: (e: { target: { value: string } }) => set(key, orNull(e.target.value)),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSave(fields);
  };
  return (
    <form className="card banner-form" onSubmit={submit} aria-label={props.initial ? `Edit banner ${props.initial.id}` : "New banner"}>
      <h2>{props.initial ? `Edit banner ${props.initial.id}` : "New banner"}</h2>
      <label>
        Message (markdown)
        <textarea required value={fields.message} onChange={(e) => set("message", e.target.value)} rows={2} />
      </label>
      <div className="row">
        <label>
          Variant
          <select value={fields.variant} onChange={(e) => set("variant", e.target.value as BannerFields["variant"])}>
            <option value="info">info</option>
            <option value="warning">warning</option>
            <option value="error">error</option>
            <option value="success">success</option>
          </select>
        </label>
        <label>
          Icon (empty: the variant's; "none": no icon)
          <input {...text("icon")} />
        </label>
        <label className="check">
          <input type="checkbox" checked={fields.sticky} onChange={(e) => set("sticky", e.target.checked)} />
          Sticky
        </label>
        <label className="check">
          <input type="checkbox" checked={fields.enabled} onChange={(e) => set("enabled", e.target.checked)} />
          Enabled
        </label>
      </div>
      <div className="row">
        <label>
          Link (a URL, or "dialog")
          <input {...text("link")} />
        </label>
        <label>
          Link text
          <input {...text("linkText")} placeholder="More info" />
        </label>
        <label>
          Dialog title
          <input {...text("dialogTitle")} />
        </label>
      </div>
      <label>
        Dialog (markdown)
        <textarea {...text("dialog")} rows={2} />
      </label>
      <section aria-label="Preview" className="preview">
        <h3>Preview</h3>
        {fields.message.trim() ? <BannerView banner={fields} /> : <p className="muted">Write a message to see the banner.</p>}
      </section>
      <FormError error={props.error} />
      <div className="row">
        <button type="submit" disabled={props.busy}>
          {props.initial ? "Save banner" : "Create banner"}
        </button>
        {props.onCancel && (
          <button type="button" className="secondary" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
