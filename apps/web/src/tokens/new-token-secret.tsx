import { useState } from "react";

/** The whole token, shown this once, with a button that copies it. */
export function NewTokenSecret({ name, secret }: { name: string; secret: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(secret);
    setCopied(true);
  };
  return (
    <div className="card secret" role="status">
      <p>
        The token <strong>{name}</strong> was created. Copy it now: it is shown only once.
      </p>
      <div className="row">
        <input readOnly value={secret} aria-label="New token" onFocus={(e) => e.target.select()} size={60} />
        <button type="button" onClick={copy}>
          {copied ? "Copied" : "Copy token"}
        </button>
      </div>
    </div>
  );
}
