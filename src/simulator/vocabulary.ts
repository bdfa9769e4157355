/**
 * Words the generator draws from. Several languages on purpose: accents, ligatures, Polish and
 * Nordic letters, Greek and CJK text must survive every stage from JSON to Excel.
 */

/** A locale's people names. */
export interface NamePool {
  readonly locale: string;
  readonly first: readonly string[];
  readonly last: readonly string[];
}

export const NAME_POOLS: readonly NamePool[] = [
  {
    locale: "fr-FR",
    first: ["Amélie", "Chloé", "François", "Hélène", "Jérôme", "Noël", "Zoë", "Benoît", "Cécile"],
    last: ["Lefèvre", "Dubois", "Côté", "Bélanger", "Moreau", "Girard", "Leroy", "Ferrand"],
  },
  {
    locale: "de-DE",
    first: ["Jürgen", "Jörg", "Käthe", "Günther", "Anja", "Lukas", "Sören", "Maximilian"],
    last: ["Müller", "Schröder", "Weiß", "Groß", "Köhler", "Schmidt", "Bäcker", "Krüger"],
  },
  {
    locale: "en-GB",
    first: ["Olivia", "George", "Amelia", "Harry", "Isla", "Jack", "Siobhán", "Seán"],
    last: ["Smith", "O'Brien", "Taylor", "Brown", "Wilson", "Evans", "Hughes", "Walker"],
  },
  {
    locale: "es-ES",
    first: ["José", "Begoña", "Íñigo", "Lucía", "Martín", "Sofía", "Álvaro", "Inés"],
    last: ["Núñez", "Muñoz", "García", "Fernández", "Peña", "Ibáñez", "Martínez", "Gómez"],
  },
  {
    locale: "pl-PL",
    first: ["Łukasz", "Małgorzata", "Wojciech", "Żaneta", "Paweł", "Agnieszka", "Zbigniew"],
    last: ["Wiśniewski", "Kowalczyk", "Wójcik", "Łęcka", "Zieliński", "Dąbrowska", "Król"],
  },
  {
    locale: "sv-SE",
    first: ["Åsa", "Björn", "Søren", "Linnéa", "Örjan", "Maja"],
    last: ["Åkesson", "Sjöberg", "Ødegård", "Lindqvist", "Bergström", "Nyström"],
  },
  {
    locale: "el-GR",
    first: ["Αλέξανδρος", "Ελένη", "Γιώργος", "Μαρία"],
    last: ["Παπαδόπουλος", "Οικονόμου", "Γεωργίου", "Νικολάου"],
  },
  {
    locale: "ja-JP",
    first: ["花子", "太郎", "さくら", "健一"],
    last: ["佐藤", "鈴木", "高橋", "田中"],
  },
];

export const DEPARTMENTS = [
  { key: "sales", label: "Ventes & Développement" },
  { key: "support", label: "Kundenbetreuung" },
  { key: "finance", label: "Finance and Controlling" },
  { key: "hr", label: "Ressources humaines" },
  { key: "it", label: "Informatique — Systèmes" },
  { key: "legal", label: "Asesoría jurídica" },
  { key: "ops", label: "Opérations logistiques" },
  { key: "rnd", label: "Forschung & Entwicklung" },
  { key: "marketing", label: "Marketing & Communication" },
  { key: "quality", label: "Qualité / Sécurité" },
] as const;

export const REGIONS = [
  "emea",
  "amer",
  "apac",
  "île-de-france",
  "bayern",
  "cataluña",
  "mazowsze",
  "skåne",
] as const;

export const JOB_TITLES = [
  "Chargée de clientèle",
  "Teamleiter",
  "Analyst",
  "Técnico de soporte",
  "Kierownik projektu",
  "Ingénieur qualité",
  "営業担当",
  "Συντονιστής",
] as const;

/** Everything a product's text fields need in one language. */
export interface ProductLanguage {
  readonly code: string;
  readonly currency: string;
  readonly region: string;
  readonly titles: readonly string[];
  readonly level: string;
  readonly summary: string;
  readonly learn: readonly string[];
  readonly audience: string;
  readonly admissibility: string;
  readonly howToAccess: string;
  readonly certificate: string;
}

export const PRODUCT_LANGUAGES: readonly ProductLanguage[] = [
  {
    code: "fr",
    currency: "EUR",
    region: "Île-de-France",
    titles: ["Sécurité au travail : les fondamentaux", "Prévention des risques électriques"],
    level: "niveau",
    summary: "Une formation complète pour maîtriser les règles, à votre rythme.",
    learn: [
      "Identifier les risques",
      "Appliquer les gestes de prévention",
      "Réagir en cas d'accident",
    ],
    audience: "Salariés, managers et intérimaires",
    admissibility: "Aucun prérequis ; accès réservé aux salariés.",
    howToAccess: "Connectez-vous à l'espace formation puis cliquez sur « Commencer ».",
    certificate: "Attestation de réussite délivrée à l'issue du parcours",
  },
  {
    code: "de",
    currency: "EUR",
    region: "Bayern",
    titles: ["Datenschutz für Führungskräfte", "Arbeitssicherheit im Büro"],
    level: "Stufe",
    summary: "Grundlagen und Praxisbeispiele für den Arbeitsalltag.",
    learn: ["Pflichten kennen", "Risiken bewerten", "Maßnahmen umsetzen"],
    audience: "Führungskräfte und Teamleiter",
    admissibility: "Grundkenntnisse der DSGVO empfohlen.",
    howToAccess: "Über das Lernportal unter „Meine Kurse“ starten.",
    certificate: "Teilnahmebescheinigung nach bestandenem Abschlusstest",
  },
  {
    code: "en",
    currency: "GBP",
    region: "EMEA",
    titles: ["Leadership essentials", "Anti-bribery & corruption"],
    level: "level",
    summary: "Short, practical modules with a final quiz.",
    learn: ["Set clear goals", "Give useful feedback", "Handle conflict"],
    audience: "New and experienced managers",
    admissibility: "Open to all staff.",
    howToAccess: "Open the course from your dashboard.",
    certificate: "Certificate of completion",
  },
  {
    code: "es",
    currency: "EUR",
    region: "Cataluña",
    titles: ["Atención al cliente de excelencia", "Prevención del acoso laboral"],
    level: "nivel",
    summary: "Curso práctico con casos reales y evaluación final.",
    learn: ["Escuchar activamente", "Gestionar reclamaciones", "Fidelizar clientes"],
    audience: "Equipos de atención y ventas",
    admissibility: "Sin requisitos previos.",
    howToAccess: "Acceda desde «Mis cursos» en el portal.",
    certificate: "Diploma de aprovechamiento",
  },
  {
    code: "pl",
    currency: "PLN",
    region: "Mazowsze",
    titles: ["Zarządzanie projektami", "Bezpieczeństwo informacji"],
    level: "poziom",
    summary: "Praktyczne podstawy dla każdego pracownika.",
    learn: ["Planować zadania", "Oceniać ryzyko", "Raportować postępy"],
    audience: "Kierownicy i członkowie zespołów",
    admissibility: "Brak wymagań wstępnych.",
    howToAccess: "Zaloguj się i wybierz „Moje szkolenia”.",
    certificate: "Zaświadczenie o ukończeniu szkolenia",
  },
  {
    code: "ja",
    currency: "JPY",
    region: "関東",
    titles: ["情報セキュリティ入門", "コンプライアンス基礎"],
    level: "レベル",
    summary: "業務に必要な基本をわかりやすく学びます。",
    learn: ["リスクを理解する", "ルールを守る", "事故に対応する"],
    audience: "全社員",
    admissibility: "前提条件はありません。",
    howToAccess: "ポータルの「マイコース」から開始してください。",
    certificate: "修了証",
  },
];

export const VIDEO_ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Lower-case ASCII slug: accents dropped, everything else outside [a-z0-9] becomes a dash. */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/ł/g, "l")
    .replace(/Ł/g, "L")
    .replace(/ø/g, "o")
    .replace(/ß/g, "ss")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
