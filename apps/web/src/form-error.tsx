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
