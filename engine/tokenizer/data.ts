/**
 * Unicode data for the tokenizer, as compact hex code-point ranges (`a-b` or `a`, comma-separated).
 *
 * DEFAULT_SEPARATOR_RANGES reproduces charabia 0.9's `DEFAULT_SEPARATORS` (charabia/src/separators.rs) by its own
 * stated rule rather than by copying it: every code point of the Unicode general categories Pc, Pd, Pe, Pf, Pi, Po
 * and Ps as of Unicode 13 (the list has U+2E52, added in 13.0, and none of the 14.0 additions U+061D, U+1B7D–1B7E,
 * U+2E53–2E5D, U+10F86–10F89, U+12FF1–12FF2), all of Zs/Zl/Zp, plus `\0`, `\t`, `\n`, `\r` and `` ` ``, and the math
 * symbols the list actually holds (`+ ± × ÷` and U+2212–U+22FF except U+2226 and U+228E; `< = > | ~ ¬` and
 * U+2200–U+2211 are not in it). Generated from the Unicode Character Database (Python 3.11's unicodedata, Unicode
 * 14, minus the 14.0 additions above). The three multi-character entries (". ", ", ", "។ល។") are in separators.ts.
 */
export const DEFAULT_SEPARATOR_RANGES =
  '0,9-a,d,20-23,25-2f,3a-3b,3f-40,5b-5d,5f-60,7b,7d,a0-a1,a7,ab,b1,b6-b7,bb,bf,d7,f7,37e,387,55a-55f,589-58a,5be,5c0,5c3,5c6,5f3-5f4,609-60a,60c-60d,61b,61e-61f,66a-66d,6d4,700-70d,7f7-7f9,830-83e,85e,964-965,970,9fd,a76,af0,c77,c84,df4,e4f,e5a-e5b,f04-f12,f14,f3a-f3d,f85,fd0-fd4,fd9-fda,104a-104f,10fb,1360-1368,1400,166e,1680,169b-169c,16eb-16ed,1735-1736,17d4-17d6,17d8-17da,1800-180a,1944-1945,1a1e-1a1f,1aa0-1aa6,1aa8-1aad,1b5a-1b60,1bfc-1bff,1c3b-1c3f,1c7e-1c7f,1cc0-1cc7,1cd3,2000-200a,2010-2029,202f-2043,2045-2051,2053-205f,207d-207e,208d-208e,2212-2225,2227-228d,228f-22ff,2308-230b,2329-232a,2768-2775,27c5-27c6,27e6-27ef,2983-2998,29d8-29db,29fc-29fd,2cf9-2cfc,2cfe-2cff,2d70,2e00-2e2e,2e30-2e4f,2e52,3000-3003,3008-3011,3014-301f,3030,303d,30a0,30fb,a4fe-a4ff,a60d-a60f,a673,a67e,a6f2-a6f7,a874-a877,a8ce-a8cf,a8f8-a8fa,a8fc,a92e-a92f,a95f,a9c1-a9cd,a9de-a9df,aa5c-aa5f,aade-aadf,aaf0-aaf1,abeb,fd3e-fd3f,fe10-fe19,fe30-fe52,fe54-fe61,fe63,fe68,fe6a-fe6b,ff01-ff03,ff05-ff0a,ff0c-ff0f,ff1a-ff1b,ff1f-ff20,ff3b-ff3d,ff3f,ff5b,ff5d,ff5f-ff65,10100-10102,1039f,103d0,1056f,10857,1091f,1093f,10a50-10a58,10a7f,10af0-10af6,10b39-10b3f,10b99-10b9c,10ead,10f55-10f59,11047-1104d,110bb-110bc,110be-110c1,11140-11143,11174-11175,111c5-111c8,111cd,111db,111dd-111df,11238-1123d,112a9,1144b-1144f,1145a-1145b,1145d,114c6,115c1-115d7,11641-11643,11660-1166c,116b9,1173c-1173e,1183b,11944-11946,119e2,11a3f-11a46,11a9a-11a9c,11a9e-11aa2,11c41-11c45,11c70-11c71,11ef7-11ef8,11fff,12470-12474,16a6e-16a6f,16af5,16b37-16b3b,16b44,16e97-16e9a,16fe2,1bc9f,1da87-1da8b,1e95e-1e95f'

/**
 * Single code points of charabia's `CONTEXT_SEPARATORS` (hard separators: a word after one is 8 positions further
 * instead of 1). "\0", the sentence/clause marks of many scripts, `! ; ? ¡ § ¶ ¿`, CJK `、 。` and the fullwidth
 * `！ ， ． ： ； ？ ｡ ､` (the latter are normalized before classification, see normalize.ts). `:` is not hard in 0.9.
 * U+00B4 (´) is listed by charabia but is not a default separator.
 */
export const HARD_SEPARATOR_RANGES =
  '0,21,3b,3f,a1,a7,b4,b6,bf,37e,55c-55e,589,5c3,60c,61b,61f,6d4,700-709,7f7-7f9,830-835,838-83e,85e,964-965,df4,e5a-e5b,f04-f0a,f0d-f12,f14,fd0-fd4,104a-104b,10fb,1362-1368,169b-169c,16eb-16ed,1735-1736,17d4-17d6,17d8,17da,1800-1806,1808-1809,1944-1945,1a1f,1aa8-1aad,1b5a-1b60,1bfc-1bff,1c3b-1c3f,1c7e-1c7f,1cc0-1cc7,2024-2026,203b-203d,2047-2049,204f,2056,205a,2cf9-2cfc,2cfe,2e18,2e2e,2e41,3001-3002,a4fe-a4ff,a60d-a60f,a6f2-a6f7,a876-a877,a8ce-a8cf,a92f,a95f,a9c3-a9cd,aa5c-aa5f,aadf,aaf0-aaf1,abeb,fe10-fe16,fe19,fe30,fe45,fe50-fe52,fe54-fe57,ff01,ff0c,ff0e,ff1a-ff1b,ff1f,ff61,ff64,10857,10a50-10a58,10af0-10af5,10b3a-10b3f,10b99-10b9c,10f55-10f59,11047-1104d,110be-110c1,11140-11143,11175,111c5-111c6,111cd,111de-111df,11238-11239,1123b-1123c,112a9,1144b-1144d,1145a,115c2-115c3,115c9-115d7,11641-11642,11660-1166c,1173c-1173e,11944,11946,11a3f-11a46,11a9a-11a9c,11a9e-11aa2,11c41-11c42,11c70-11c71,11ef7-11ef8,11fff,12471-12474,16a6e-16a6f,16af5,16b37-16b39,16b44,16e97-16e9a,1bc9f,1da87-1da8a,1e95e-1e95f'
