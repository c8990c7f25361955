import { useId, useRef } from "react";
import { Markdown } from "../markdown.tsx";
import type { RouterOutputs } from "../trpc.ts";
import { BannerIcon } from "./banner-icon.tsx";

export type Banner = RouterOutputs["banners"]["list"]["banners"][number];
export type BannerLook = Pick<Banner, "message" | "variant" | "sticky" | "icon" | "link" | "linkText" | "dialogTitle" | "dialog">;

const VARIANT_LABELS = { info: "Information", warning: "Warning", error: "Error", success: "Success" } as const;

/** http(s), mailto and same-site links are followed; anything else (javascript:, data:) is shown as text. */
function isSafeLink(link: string): boolean {
  if (/^(https?:|mailto:)/i.test(link)) return true;
  return !/^[a-z][a-z0-9+.-]*:/i.test(link.trim()) && !link.trim().startsWith("//");
}

function BannerLink({ banner }: { banner: BannerLook }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  if (!banner.link) return null;
  const text = banner.linkText ?? "More info";
  if (banner.link === "dialog") {
    return (
      <>
        <button type="button" className="banner-link" onClick={() => dialog.current?.showModal()}>
          {text}
        </button>
        <dialog ref={dialog} className="banner-dialog" aria-labelledby={titleId}>
          <h2 id={titleId}>{banner.dialogTitle ?? text}</h2>
          {banner.dialog ? <Markdown text={banner.dialog} /> : null}
          <form method="dialog">
            <button type="submit">Close</button>
          </form>
        </dialog>
      </>
    );
  }
  if (!isSafeLink(banner.link)) return <span className="banner-link inert">{text}</span>;
  return (
    <a className="banner-link" href={banner.link} rel="noopener noreferrer">
      {text}
    </a>
  );
}

/** One banner exactly as its fields say: the variant's colours and icon, the markdown made safe, the link or dialog. */
export function BannerView({ banner }: { banner: BannerLook }) {
  return (
    <section className={`banner banner-${banner.variant}`} aria-label={`${VARIANT_LABELS[banner.variant]} banner`}>
      <BannerIcon icon={banner.icon} variant={banner.variant} />
      <Markdown className="banner-message" text={banner.message} inline />
      <BannerLink banner={banner} />
    </section>
  );
}
