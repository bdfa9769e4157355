/**
 * Semantic rules for the product fields of the registry, keyed by field name: titles and HTML in the
 * product's language, URLs, a decimal price with a formatted label, 0/1 flags. Fields the spec
 * only shows as null stay null, except a few event fields on event products, so clients meet both.
 */

import { DAY, formatDate, HOUR } from "./dates.js";
import type { FieldRule, FillContext } from "./fill.js";
import { type ProductLanguage, slugify, VIDEO_ID_ALPHABET } from "./vocabulary.js";

const CDN = "https://cdn.lms.example.test";

const lang = (c: FillContext): ProductLanguage => c.facts._language as ProductLanguage;
const str = (c: FillContext, name: string): string => c.value(name) as string;
const num = (c: FillContext, name: string): number => c.value(name) as number;
const flag =
  (share: number): FieldRule =>
  (c) =>
    c.rng.chance(share) ? 1 : 0;
const isEvent = (c: FillContext): boolean => str(c, "product_type_id") === "webinar";

/** Derived from the id, not drawn, so the start and end fields agree without sharing state. */
const eventStart = (c: FillContext): number =>
  c.now + (((num(c, "product_id") * 7919) % 120) + 1) * DAY + 14 * HOUR;

const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export const PRODUCT_RULES: Readonly<Record<string, FieldRule>> = {
  product_key: (c) => `PRD-${String(num(c, "product_id")).padStart(5, "0")}`,
  product_type_id: (c) => (c.rng.chance(0.85) ? "elearning" : "webinar"),
  product_status: (c) => (c.rng.chance(0.85) ? "published" : c.rng.pick(["draft", "archived"])),
  product_i18n_language_id: (c) => lang(c).code,
  product_i18n_title: (c) => {
    const l = lang(c);
    return `${c.rng.pick(l.titles)} — ${l.level} ${(c.facts._ordinal as number) + 1}`;
  },
  product_i18n_slug: (c) =>
    `${slugify(str(c, "product_i18n_title")) || "product"}-${num(c, "product_id")}`,
  product_i18n_name: (c) => str(c, "product_i18n_title"),
  product_i18n_summary: (c) => lang(c).summary,
  product_i18n_description: (c) =>
    `<h2>${escapeHtml(str(c, "product_i18n_title"))}</h2><p>${escapeHtml(lang(c).summary)}</p>` +
    `<p><strong>${num(c, "product_duration")} min</strong> &middot; ${escapeHtml(lang(c).audience)}</p>`,
  product_i18n_learn: (c) =>
    `<ul>${lang(c)
      .learn.map((item) => `<li>${escapeHtml(item)}</li>`)
      .join("")}</ul>`,
  product_i18n_certificate_mention: (c) => lang(c).certificate,
  product_i18n_region: (c) => lang(c).region,
  product_i18n_admissibility: (c) => lang(c).admissibility,
  product_i18n_audience: (c) => lang(c).audience,
  product_i18n_how_to_access: (c) => lang(c).howToAccess,
  product_i18n_speaker_bio: (c) =>
    c.rng.chance(0.3)
      ? null
      : `<p>${escapeHtml(str(c, "product_i18n_creator_name"))}, 15 ans d’expérience.</p>`,
  product_i18n_creator_name: (c) =>
    c.rng.pick(["Académie Sécurité", "Lernwerk GmbH", "Northwind Learning", "Formación Ñandú"]),
  product_i18n_creator_url: (c) =>
    `https://${slugify(str(c, "product_i18n_creator_name"))}.example.com/`,
  product_i18n_promo_video_url_host_video_id: (c) => {
    let id = "";
    for (let i = 0; i < 11; i++) id += c.rng.pick([...VIDEO_ID_ALPHABET]);
    return id;
  },
  product_i18n_promo_video_url: (c) =>
    `https://www.youtube.com/watch?v=${str(c, "product_i18n_promo_video_url_host_video_id")}`,
  product_i18n_promo_video_url_host_video_status: () => "available",
  product_i18n_image: (c) => `uploads/products/${str(c, "product_i18n_slug")}.jpg`,
  product_image_full_url: (c) => `${CDN}/${str(c, "product_i18n_image")}`,
  product_price: (c) => (c.rng.chance(0.1) ? 0 : c.rng.int(990, 89_900) / 100),
  product_i18n_price_label: (c) =>
    new Intl.NumberFormat(lang(c).code, { style: "currency", currency: lang(c).currency }).format(
      num(c, "product_price"),
    ),
  product_i18n_extra_info: (c) => (c.rng.chance(0.1) ? "<p>Places limitées.</p>" : null),
  // The spec shows these as null with no type; event products carry a date-time text.
  product_event_date: (c) => (isEvent(c) ? formatDate(eventStart(c), 0) : null),
  product_event_end_date: (c) => (isEvent(c) ? formatDate(eventStart(c) + 2 * HOUR, 0) : null),
  product_event_type: (c) => (isEvent(c) ? "online" : null),
  product_for_sale: flag(0.4),
  product_add_to_catalog: flag(0.8),
  product_min_score: (c) => c.rng.pick([50, 60, 70, 75, 80]),
  product_duration: (c) => c.rng.pick([15, 30, 45, 60, 90, 120, 240, 420]),
  product_certificate_report: flag(0.6),
  product_certificate_working_type: () => "hours",
  product_allow_notation: flag(0.5),
  product_certificate_unit: (c) => c.rng.int(1, 4),
  product_certificate_hour: (c) => Math.max(1, Math.round(num(c, "product_duration") / 60)),
  product_waiting_list: flag(0.1),
  product_show_list_of_participants: flag(0.2),
  product_min_participant: (c) => (isEvent(c) ? c.rng.int(3, 12) : 0),
  product_external_id: (c) => `SKU-${c.rng.int(100_000, 999_999)}`,
  product_external_code: (c) => `${lang(c).code.toUpperCase()}-${num(c, "product_id")}`,
  product_created_by_user_id: (c) => (c.facts._author as number | undefined) ?? 1,
  product_updated_by_user_id: (c) => (c.facts._editor as number | undefined) ?? 1,
  product_product_access_expired_day: (c) => c.rng.pick([30, 90, 180, 365, 730]),
  product_event_access_need_approval: (c) => (isEvent(c) && c.rng.chance(0.5) ? 1 : 0),
  product_provider_id: (c) => c.rng.int(1, 6),
};
