/** Resources served by a list operation (take: per user). */
export type ListedName = "grp" | "user_grp" | "product_access" | "svc_availability" | "take";
