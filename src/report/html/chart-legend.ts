/**
 * Chart legends drawn as plain SVG. Plot draws its own legends as HTML (swatches) or through a
 * canvas (colour ramps), neither of which exists in server-side rendering or survives conversion
 * to PNG, so the chart's colour scale is read back from Plot and drawn here.
 */
import type * as Plot from "@observablehq/plot";
import type { ColumnKind } from "../present/column-kind.js";
import { columnLabel } from "../present/column-label.js";
import type { ChartData } from "./chart-data.js";
import type { ChartSpec } from "./chart-spec.js";
import { escapeHtml } from "./escape.js";

/** A legend: its SVG group (drawn from y = 0) and the height it takes. */
export interface Legend {
  readonly svg: string;
  readonly height: number;
}

const SWATCH = 12;
const ROW = 18;
/** Average glyph width of the 11px legend text, in pixels (no canvas to measure with). */
const CHAR_WIDTH = 6.2;

/** One coloured square and its label per entry, wrapped onto rows `width` wide. */
export function swatchLegend(
  entries: readonly { label: string; color: string }[],
  width: number,
): Legend {
  let x = 0;
  let y = 0;
  const parts: string[] = [];
  for (const { label, color } of entries) {
    const itemWidth = SWATCH + 6 + label.length * CHAR_WIDTH + 16;
    if (x > 0 && x + itemWidth > width) {
      x = 0;
      y += ROW;
    }
    parts.push(
      `<rect x="${x}" y="${y + 2}" width="${SWATCH}" height="${SWATCH}" fill="${escapeHtml(color)}"/>`,
      `<text x="${x + SWATCH + 6}" y="${y + 12}">${escapeHtml(label)}</text>`,
    );
    x += itemWidth;
  }
  return {
    svg: `<g font-size="11" text-anchor="start">${parts.join("")}</g>`,
    height: y + ROW + 6,
  };
}

const RAMP_WIDTH = 240;
const RAMP_HEIGHT = 10;
const STOPS = 11;

/**
 * A colour ramp for a continuous scale: `label` above, the gradient, and ticks under it at the
 * domain's ends and three points between, formatted by `format`. `id` names the gradient and must
 * be unique in the document that shows the chart.
 */
export function rampLegend(options: {
  id: string;
  label: string;
  domain: readonly [number, number];
  color: (t: number) => string;
  format: (value: number) => string;
}): Legend {
  const { id, label, domain, color, format } = options;
  const [low, high] = domain;
  const stops: string[] = [];
  for (let i = 0; i < STOPS; i++) {
    const t = i / (STOPS - 1);
    stops.push(`<stop offset="${(t * 100).toFixed(0)}%" stop-color="${escapeHtml(color(t))}"/>`);
  }
  const ticks: string[] = [];
  for (let i = 0; i <= 4; i++) {
    const x = (RAMP_WIDTH * i) / 4;
    const anchor = i === 0 ? "start" : i === 4 ? "end" : "middle";
    ticks.push(
      `<line x1="${x}" x2="${x}" y1="${16 + RAMP_HEIGHT}" y2="${20 + RAMP_HEIGHT}" stroke="currentColor"/>`,
      `<text x="${x}" y="${32 + RAMP_HEIGHT}" text-anchor="${anchor}">${escapeHtml(format(low + ((high - low) * i) / 4))}</text>`,
    );
  }
  const gradientId = escapeHtml(id);
  const svg =
    `<g font-size="11" text-anchor="start">` +
    `<defs><linearGradient id="${gradientId}" x1="0" x2="1" y1="0" y2="0">${stops.join("")}</linearGradient></defs>` +
    `<text x="0" y="11" font-weight="bold">${escapeHtml(label)}</text>` +
    `<rect x="0" y="16" width="${RAMP_WIDTH}" height="${RAMP_HEIGHT}" fill="url(#${gradientId})"/>` +
    `${ticks.join("")}</g>`;
  return { svg, height: 32 + RAMP_HEIGHT + 8 };
}

const RAMP_PERCENT = new Intl.NumberFormat("en", { style: "percent", maximumFractionDigits: 0 });
const RAMP_NUMBER = new Intl.NumberFormat("en", { maximumSignificantDigits: 3 });

function rampTick(value: number, kind: ColumnKind): string {
  return kind === "percent" ? RAMP_PERCENT.format(value) : RAMP_NUMBER.format(value);
}

/** The legend of a drawn chart's colour scale, if it has one. */
export function legendOf(
  plot: ReturnType<typeof Plot.plot>,
  chart: ChartSpec,
  data: ChartData,
  options: { id: string; width: number },
): Legend | undefined {
  const scale = plot.scale("color");
  if (!scale) return undefined;
  if (chart.type === "heatmap") {
    const [low, high] = (scale.domain ?? [0, 1]) as [number, number];
    const interpolate = scale.interpolate as ((t: number) => string) | undefined;
    const kind = data.kinds.get(chart.value) ?? "decimal";
    return rampLegend({
      id: `${options.id}-ramp`,
      label: columnLabel(chart.value, data.labels),
      domain: [Number(low), Number(high)],
      color: (t) => interpolate?.(t) ?? "#888",
      format: (v) => rampTick(v, kind),
    });
  }
  const domain = (scale.domain ?? []) as string[];
  const range = (scale.range ?? []) as string[];
  const entries = domain.map((label, i) => ({ label, color: range[i % range.length] ?? "#888" }));
  return swatchLegend(entries, options.width - 20);
}
