/**
 * A chart's SVG as PNG for a mail's inline image: most mail clients drop inline SVG but show a
 * PNG referenced by `cid:`. Drawn at twice the SVG's size so it stays sharp on dense screens
 * (the HTML gives the `<img>` the SVG's size), with the system's fonts so the labels are drawn.
 */
import { Resvg } from "@resvg/resvg-js";

/** How much larger than the SVG's own size the PNG is drawn. */
export const PNG_SCALE = 2;

export function chartPng(svg: string): Buffer {
  const resvg = new Resvg(svg, {
    background: "#ffffff",
    fitTo: { mode: "zoom", value: PNG_SCALE },
    font: {
      loadSystemFonts: true,
      // The charts ask for system-ui and the like; DejaVu Sans is what a Debian server has.
      defaultFontFamily: "DejaVu Sans",
      sansSerifFamily: "DejaVu Sans",
    },
    logLevel: "off",
  });
  return resvg.render().asPng();
}
