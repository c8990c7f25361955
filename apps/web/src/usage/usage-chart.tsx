import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { EnvironmentExposures } from "./exposures-by-hour.ts";

// Colours that stay apart for the colour-blind (Okabe-Ito); yes and no first, then the variants.
const COLOURS = ["#009e73", "#d55e00", "#0072b2", "#e69f00", "#cc79a7", "#56b4e9", "#000000", "#f0e442"];

/** A line per series over the 48 hours; the chart is a picture, its numbers are in the table beside it. */
export function UsageChart({ exposures }: { exposures: EnvironmentExposures }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const target = box.current;
    if (!target) return;
    const variantNames = [...exposures.variants.keys()];
    const series: uPlot.Series[] = [
      {},
      ...["yes", "no", ...variantNames.map((v) => `variant ${v}`)].map((label, i) => ({
        label,
        stroke: COLOURS[i % COLOURS.length],
        width: 2,
      })),
    ];
    const data: uPlot.AlignedData = [
      exposures.hours,
      exposures.yes,
      exposures.no,
      ...variantNames.map((v) => exposures.variants.get(v) ?? []),
    ];
    const chart = new uPlot(
      {
        width: Math.max(320, Math.min(target.clientWidth, 900)),
        height: 220,
        series,
        axes: [{}, { size: 60 }],
        // A picture, hidden from assistive technology: no mouse-only controls in it (uPlot's legend hides a series on a
        // click, a drag zooms, a double click resets), as a keyboard could reach none of them.
        cursor: { drag: { setScale: false, x: false, y: false }, bind: { click: () => null, dblclick: () => null } },
      },
      data,
      target,
    );
    return () => chart.destroy();
  }, [exposures]);
  return <div ref={box} className="usage-chart" aria-hidden="true" />;
}
