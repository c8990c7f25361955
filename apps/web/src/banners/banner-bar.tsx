import { useQuery } from "@tanstack/react-query";
import { trpc } from "../trpc.ts";
import { BannerView } from "./banner-view.tsx";

/** Every enabled banner, newest first; sticky ones stay at the top of the window while the page scrolls. */
export function BannerBar() {
  const banners = useQuery(trpc.banners.list.queryOptions());
  const shown = banners.data?.banners.filter((b) => b.enabled) ?? [];
  if (shown.length === 0) return null;
  const sticky = shown.filter((b) => b.sticky);
  const scrolling = shown.filter((b) => !b.sticky);
  return (
    <>
      {sticky.length > 0 && (
        <div className="banner-bar sticky" data-testid="sticky-banners">
          {sticky.map((b) => (
            <BannerView key={b.id} banner={b} />
          ))}
        </div>
      )}
      {scrolling.length > 0 && (
        <div className="banner-bar">
          {scrolling.map((b) => (
            <BannerView key={b.id} banner={b} />
          ))}
        </div>
      )}
    </>
  );
}
