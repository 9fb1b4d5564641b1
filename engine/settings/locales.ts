/** Meilisearch's `Locale` enum: ISO-639-1 → ISO-639-3, in its declaration order (the order of its messages). */
export const LOCALES: readonly (readonly [string, string])[] = [
  ['af', 'afr'], ['ak', 'aka'], ['am', 'amh'], ['ar', 'ara'], ['az', 'aze'], ['be', 'bel'], ['bn', 'ben'], ['bg', 'bul'],
  ['ca', 'cat'], ['cs', 'ces'], ['da', 'dan'], ['de', 'deu'], ['el', 'ell'], ['en', 'eng'], ['eo', 'epo'], ['et', 'est'],
  ['fi', 'fin'], ['fr', 'fra'], ['gu', 'guj'], ['he', 'heb'], ['hi', 'hin'], ['hr', 'hrv'], ['hu', 'hun'], ['hy', 'hye'],
  ['id', 'ind'], ['it', 'ita'], ['jv', 'jav'], ['ja', 'jpn'], ['kn', 'kan'], ['ka', 'kat'], ['km', 'khm'], ['ko', 'kor'],
  ['la', 'lat'], ['lv', 'lav'], ['lt', 'lit'], ['ml', 'mal'], ['mr', 'mar'], ['mk', 'mkd'], ['my', 'mya'], ['ne', 'nep'],
  ['nl', 'nld'], ['nb', 'nob'], ['or', 'ori'], ['pa', 'pan'], ['fa', 'pes'], ['pl', 'pol'], ['pt', 'por'], ['ro', 'ron'],
  ['ru', 'rus'], ['si', 'sin'], ['sk', 'slk'], ['sl', 'slv'], ['sn', 'sna'], ['es', 'spa'], ['sr', 'srp'], ['sv', 'swe'],
  ['ta', 'tam'], ['te', 'tel'], ['tl', 'tgl'], ['th', 'tha'], ['tk', 'tuk'], ['tr', 'tur'], ['uk', 'ukr'], ['ur', 'urd'],
  ['uz', 'uzb'], ['vi', 'vie'], ['yi', 'yid'], ['zh', 'zho'], ['zu', 'zul'],
]

/** The values the JSON form accepts (deserr enum order): two-letter codes, then three-letter ones, then `cmn`. */
export const LOCALE_VALUES: readonly string[] = [...LOCALES.map(([two]) => two), ...LOCALES.map(([, three]) => three), 'cmn']

/** Any accepted locale → its ISO-639-3 code. */
export const TO_ISO_639_3: ReadonlyMap<string, string> = new Map([
  ...LOCALES.map(([two, three]) => [two, three] as const),
  ...LOCALES.map(([, three]) => [three, three] as const),
  ['cmn', 'cmn'] as const,
])
