/**
 * The registry: one declarative entry per resource of the LMS API v2 (docs/api.md §1, §2).
 *
 * This is the only place a field list is written. Nullability: the spec states it only for groups;
 * for every other resource the primary key is required and every other field is taken as nullable,
 * because a nullable column accepts either answer while a NOT NULL one would reject real data.
 */
import type { FieldType, ResourceName, ResourceSpec } from "./types.js";

/** A field declaration that keeps its literal name, type and nullability for the derived record types. */
function f<const N extends string, const T extends FieldType, const Null extends boolean = true>(
  name: N,
  type: T,
  nullable: Null = true as Null,
  values?: readonly string[],
): {
  readonly name: N;
  readonly type: T;
  readonly nullable: Null;
  readonly values?: readonly string[];
} {
  return values ? { name, type, nullable, values } : { name, type, nullable };
}
const key = <const N extends string>(name: N) => f(name, "int", false);

const grp = {
  name: "grp",
  title: "groups",
  primaryKey: "grp_id",
  updatedField: "grp_updated_date",
  endpoints: {
    list: "/grp/get_all",
    edit: "/grp/edit/{id}",
    getByExternalId: "/grp/get_by_external_id/{external_id}",
  },
  writable: [
    "grp_name",
    "grp_description",
    "grp_parent_id",
    "grp_external_id",
    "grp_external_name",
  ],
  extraction: { kind: "list", checkpoint: "page", operation: "listGroups" },
  fields: [
    key("grp_id"),
    f("grp_name", "string", false),
    f("grp_description", "string"),
    f("grp_parent_id", "int"),
    f("grp_external_id", "string"),
    f("grp_external_name", "string"),
    f("grp_created_date", "datetime", false),
    f("grp_updated_date", "datetime", false),
  ],
} as const satisfies ResourceSpec;

const userGrp = {
  name: "user_grp",
  title: "user-group links",
  primaryKey: "user_grp_id",
  updatedField: "user_grp_updated_date",
  endpoints: { list: "/user_grp/get_all", create: "/user_grp/create" },
  writable: ["user_grp_grp_id", "user_grp_user_id", "user_grp_group_admin"],
  extraction: { kind: "list", checkpoint: "page", operation: "listUserGroups" },
  fields: [
    key("user_grp_id"),
    f("user_grp_grp_id", "int"),
    f("user_grp_user_id", "int"),
    f("user_grp_group_admin", "int"),
    f("user_grp_created_date", "datetime"),
    f("user_grp_updated_date", "datetime"),
  ],
} as const satisfies ResourceSpec;

const user = {
  name: "user",
  title: "users",
  primaryKey: "user_id",
  updatedField: "user_updated_date",
  endpoints: { edit: "/user/edit/{id}" },
  writable: ["user_organisation_identifier"],
  fields: [
    key("user_id"),
    f("email", "string"),
    f("firstname", "string"),
    f("lastname", "string"),
    f("user_status", "string"),
    f("user_organisation_identifier", "string"),
    f("groups", "string_list"),
    f("properties", "object"),
    f("user_created_date", "datetime"),
    f("user_updated_date", "datetime"),
  ],
} as const satisfies ResourceSpec;

export const PRODUCT_ACCESS_STATUSES = ["active", "inactive", "expired"] as const;

const productAccess = {
  name: "product_access",
  title: "product access records",
  primaryKey: "product_access_id",
  updatedField: "product_access_updated_date",
  endpoints: {
    list: "/product_access/get_all_for_bundle",
    get: "/product_access/get/{id}",
    edit: "/product_access/edit/{id}",
  },
  writable: [
    "product_access_product_id",
    "product_access_status",
    "product_access_certificate",
    "product_access_expired_date",
  ],
  extraction: { kind: "list", checkpoint: "page", operation: "listProductAccess" },
  getOperation: "getProductAccess",
  fields: [
    key("product_access_id"),
    f("product_access_product_id", "int"),
    f("product_access_user_id", "int"),
    f("product_access_status", "string", true, PRODUCT_ACCESS_STATUSES),
    f("product_access_certificate", "string"),
    f("product_access_created_date", "datetime"),
    f("product_access_updated_date", "datetime"),
    f("product_access_expired_date", "datetime"),
  ],
} as const satisfies ResourceSpec;

const take = {
  name: "take",
  title: "takes",
  primaryKey: "take_id",
  updatedField: "take_updated_date",
  endpoints: { listFor: { path: "/take/get_all_for_user/{id}", parent: "user" } },
  extraction: {
    kind: "perParent",
    checkpoint: "parent",
    operation: "listTakesForUser",
    // The spec has no list of users: the users to ask are those the links and accesses name.
    idsFrom: [
      { parent: "user_grp", field: "user_grp_user_id" },
      { parent: "product_access", field: "product_access_user_id" },
    ],
    parentField: "take_user_id",
  },
  fields: [
    key("take_id"),
    f("take_product_id", "int"),
    f("take_user_id", "int"),
    f("take_status", "string"),
    f("take_score", "int"),
    f("take_started_date", "datetime"),
    f("take_completed_date", "datetime"),
    f("take_created_date", "datetime"),
    f("take_updated_date", "datetime"),
  ],
} as const satisfies ResourceSpec;

const svcAvailability = {
  name: "svc_availability",
  title: "availabilities",
  primaryKey: "svc_availability_id",
  updatedField: "svc_availability_updated_date",
  endpoints: { list: "/svc_availability/get_all", get: "/svc_availability/get/{id}" },
  extraction: { kind: "list", checkpoint: "page", operation: "listAvailabilities" },
  getOperation: "getAvailability",
  fields: [
    key("svc_availability_id"),
    f("svc_availability_target_type", "string"),
    f("svc_availability_target_id", "int"),
    f("svc_availability_status", "string"),
    f("svc_availability_created_date", "datetime"),
    f("svc_availability_updated_date", "datetime"),
  ],
} as const satisfies ResourceSpec;

const availabilityGroup = {
  name: "availability_group",
  title: "availability groups",
  primaryKey: "availability_group_id",
  updatedField: "availability_group_updated_date",
  endpoints: { get: "/availability_group/get/{id}" },
  extraction: {
    kind: "lookup",
    checkpoint: "lookup",
    operation: "getAvailabilityGroup",
    idsFrom: [
      {
        parent: "svc_availability",
        field: "svc_availability_target_id",
        when: { field: "svc_availability_target_type", equals: "availability_group" },
      },
    ],
  },
  fields: [
    key("availability_group_id"),
    f("availability_group_product_id", "int"),
    f("availability_group_order", "int"),
    f("availability_group_status", "string"),
    f("availability_group_created_date", "datetime"),
    f("availability_group_updated_date", "datetime"),
  ],
} as const satisfies ResourceSpec;

const product = {
  name: "product",
  title: "products",
  primaryKey: "product_id",
  updatedField: "product_updated_date",
  endpoints: { get: "/product/get/{id}" },
  extraction: {
    kind: "lookup",
    checkpoint: "lookup",
    operation: "getProduct",
    idsFrom: [
      { parent: "product_access", field: "product_access_product_id" },
      { parent: "take", field: "take_product_id" },
      { parent: "availability_group", field: "availability_group_product_id" },
      // The interface names only `availability_group` as a target type; an availability whose
      // target is a product (as the simulated portal makes) names a product to read too. A
      // target id that is no product is recorded as not found, which costs one request.
      {
        parent: "svc_availability",
        field: "svc_availability_target_id",
        when: { field: "svc_availability_target_type", equals: "product" },
      },
    ],
  },
  fields: [
    key("product_id"),
    f("product_key", "string"),
    f("product_type_id", "string"),
    f("product_status", "string"),
    f("product_i18n_language_id", "string"),
    f("product_i18n_slug", "string"),
    f("product_i18n_title", "string"),
    f("product_i18n_name", "string"),
    f("product_i18n_summary", "string"),
    f("product_i18n_description", "string"),
    f("product_i18n_learn", "string"),
    f("product_i18n_certificate_mention", "string"),
    f("product_i18n_region", "string"),
    f("product_i18n_admissibility", "string"),
    f("product_i18n_audience", "string"),
    f("product_i18n_how_to_access", "string"),
    f("product_i18n_speaker_bio", "string"),
    f("product_i18n_creator_name", "string"),
    f("product_i18n_creator_url", "string"),
    f("product_i18n_promo_video_url", "string"),
    f("product_i18n_promo_video_url_host_video_id", "string"),
    f("product_i18n_promo_video_url_host_video_status", "string"),
    f("product_i18n_image", "string"),
    f("product_i18n_price_label", "string"),
    f("product_image_full_url", "string"),
    f("product_i18n_extra_info", "unknown"),
    f("product_i18n_programmation", "unknown"),
    f("product_i18n_image_spotlight", "unknown"),
    f("product_i18n_first_reminder_text", "unknown"),
    f("product_i18n_second_reminder_text", "unknown"),
    f("product_i18n_post_reminder_text", "unknown"),
    f("product_i18n_registration_text", "unknown"),
    f("product_i18n_external_link", "unknown"),
    f("product_i18n_do_external_link", "unknown"),
    f("product_i18n_video_transcription", "unknown"),
    f("product_i18n_content", "unknown"),
    f("product_price", "number"),
    f("product_for_sale", "flag"),
    f("product_add_to_catalog", "flag"),
    f("product_min_score", "int"),
    f("product_duration", "int"),
    f("product_event_date", "unknown"),
    f("product_event_end_date", "unknown"),
    f("product_event_type", "unknown"),
    f("product_certificate_report", "flag"),
    f("product_certificate_working_type", "string"),
    f("product_allow_notation", "flag"),
    f("product_certificate_unit", "int"),
    f("product_certificate_hour", "int"),
    f("product_waiting_list", "flag"),
    f("product_show_list_of_participants", "flag"),
    f("product_min_participant", "int"),
    f("product_external_id", "string"),
    f("product_external_code", "string"),
    f("product_created_date", "datetime"),
    f("product_updated_date", "datetime"),
    f("product_created_by_user_id", "int"),
    f("product_updated_by_user_id", "int"),
    f("product_product_access_expired_day", "int"),
    f("product_event_access_need_approval", "flag"),
    f("product_do_before_type", "unknown"),
    f("product_provider_id", "int"),
  ],
} as const satisfies ResourceSpec;

/** Every resource of the spec, keyed by name. */
export const RESOURCES = {
  grp,
  user_grp: userGrp,
  user,
  product,
  product_access: productAccess,
  take,
  svc_availability: svcAvailability,
  availability_group: availabilityGroup,
} as const satisfies Record<ResourceName, ResourceSpec>;

export type Resources = typeof RESOURCES;

/**
 * Resources the extractor copies into DuckDB, in dependency order (parents before children).
 * `user` has no read operation in the spec, so it is not extracted.
 */
export const EXTRACTED = [
  "grp",
  "user_grp",
  "product_access",
  "svc_availability",
  "take",
  "availability_group",
  "product",
] as const satisfies readonly ResourceName[];

export type ExtractedName = (typeof EXTRACTED)[number];
