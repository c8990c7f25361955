import { describeError } from "./describe-error.ts";

/** A failed call, said in words, where screen readers announce it. */
export function FormError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {describeError(error)}
    </p>
  );
}

/** A form's last lines: what went wrong with the last try, and the button, off while a call runs. */
export function SubmitRow({ label, busy, error }: { label: string; busy: boolean; error: unknown }) {
  return (
    <>
      <FormError error={error} />
      <button type="submit" disabled={busy}>
        {label}
      </button>
    </>
  );
}
