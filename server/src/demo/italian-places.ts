/** Places and banks the demo data set draws from: real municipalities with their codes, so addresses look right. */

export interface Municipality {
  city: string;
  provinceCode: string;
  /** CAP of the city centre. */
  postalCode: string;
  /** Cadastral (Belfiore) code, part of a codice fiscale. */
  belfiore: string;
}

export const MUNICIPALITIES: readonly Municipality[] = [
  { city: 'Bologna', provinceCode: 'BO', postalCode: '40121', belfiore: 'A944' },
  { city: 'Milano', provinceCode: 'MI', postalCode: '20121', belfiore: 'F205' },
  { city: 'Roma', provinceCode: 'RM', postalCode: '00184', belfiore: 'H501' },
  { city: 'Napoli', provinceCode: 'NA', postalCode: '80133', belfiore: 'F839' },
  { city: 'Torino', provinceCode: 'TO', postalCode: '10121', belfiore: 'L219' },
  { city: 'Firenze', provinceCode: 'FI', postalCode: '50122', belfiore: 'D612' },
  { city: 'Genova', provinceCode: 'GE', postalCode: '16121', belfiore: 'D969' },
  { city: 'Palermo', provinceCode: 'PA', postalCode: '90133', belfiore: 'G273' },
  { city: 'Bari', provinceCode: 'BA', postalCode: '70121', belfiore: 'A662' },
  { city: 'Verona', provinceCode: 'VR', postalCode: '37121', belfiore: 'L781' },
  { city: 'Padova', provinceCode: 'PD', postalCode: '35122', belfiore: 'G224' },
  { city: 'Venezia', provinceCode: 'VE', postalCode: '30124', belfiore: 'L736' },
  { city: 'Brescia', provinceCode: 'BS', postalCode: '25121', belfiore: 'B157' },
  { city: 'Bergamo', provinceCode: 'BG', postalCode: '24121', belfiore: 'A794' },
  { city: 'Parma', provinceCode: 'PR', postalCode: '43121', belfiore: 'G337' },
  { city: 'Modena', provinceCode: 'MO', postalCode: '41121', belfiore: 'F257' },
  { city: 'Reggio Emilia', provinceCode: 'RE', postalCode: '42121', belfiore: 'H223' },
  { city: 'Ferrara', provinceCode: 'FE', postalCode: '44121', belfiore: 'D548' },
  { city: 'Imola', provinceCode: 'BO', postalCode: '40026', belfiore: 'E289' },
  { city: 'Trieste', provinceCode: 'TS', postalCode: '34121', belfiore: 'L424' },
  { city: 'Catania', provinceCode: 'CT', postalCode: '95124', belfiore: 'C351' },
  { city: 'Perugia', provinceCode: 'PG', postalCode: '06121', belfiore: 'G478' },
];

/** The demo company's own town: most of its suppliers are local. */
export const HOME = MUNICIPALITIES[0];

export const STREETS: readonly string[] = [
  'Via Roma',
  'Via Giuseppe Garibaldi',
  'Via Giuseppe Mazzini',
  "Via dell'Indipendenza",
  'Via Camillo Benso di Cavour',
  'Corso Vittorio Emanuele II',
  'Via Emilia',
  'Piazza Maggiore',
  'Via XX Settembre',
  'Viale Giosuè Carducci',
  'Via Alessandro Manzoni',
  'Via Marconi',
  'Via San Vitale',
  'Strada Maggiore',
  'Via del Lavoro',
  "Via dell'Artigianato",
  'Via Stalingrado',
  'Viale della Repubblica',
  'Via dei Mille',
  'Via Goffredo Mameli',
];

export interface Bank {
  name: string;
  /** ABI code of the bank and CAB code of a branch: the first ten digits of an Italian BBAN. */
  abi: string;
  cab: string;
}

export const BANKS: readonly Bank[] = [
  { name: 'Intesa Sanpaolo', abi: '03069', cab: '02477' },
  { name: 'UniCredit', abi: '02008', cab: '02435' },
  { name: 'BPER Banca', abi: '05387', cab: '02400' },
];

export const MONTHS = [
  'GENNAIO',
  'FEBBRAIO',
  'MARZO',
  'APRILE',
  'MAGGIO',
  'GIUGNO',
  'LUGLIO',
  'AGOSTO',
  'SETTEMBRE',
  'OTTOBRE',
  'NOVEMBRE',
  'DICEMBRE',
] as const;
