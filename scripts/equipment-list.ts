// Writes programs/approved-inverters.csv: a sample list of approved inverters shaped like the public equipment lists
// (manufacturer, model number, description, continuous AC rating, nominal voltage, weighted efficiency, whether it is a
// microinverter, date listed), 10,000 rows, the same every run (no randomness), so that the demo and the benchmark
// load a list of realistic size. Usage: npx tsx scripts/equipment-list.ts [--out FILE]
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** How many rows the sample list has. */
export const SAMPLE_ROWS = 10_000;

interface Family { maker: string; prefix: (kw: number) => string; kws: number[]; micro: boolean; volts: number[]; efficiency: number; title: string }

const fixed = (kw: number, digits = 1) => kw.toFixed(digits);
const FAMILIES: Family[] = [
  { maker: 'Enphase Energy', title: 'Microinverter', micro: true, volts: [208, 240], efficiency: 97.0, kws: [0.24, 0.25, 0.29, 0.295, 0.325, 0.349, 0.366, 0.384], prefix: (kw) => `IQ8-${Math.round(kw * 1000)}` },
  { maker: 'Hoymiles Power Electronics', title: 'Microinverter', micro: true, volts: [208, 240], efficiency: 96.5, kws: [0.3, 0.35, 0.4, 0.48, 0.6, 0.7, 0.8, 1.5], prefix: (kw) => `HM-${Math.round(kw * 1000)}NT` },
  { maker: 'APsystems', title: 'Multi-module microinverter', micro: true, volts: [208, 240], efficiency: 96.5, kws: [0.64, 0.73, 0.8, 0.96, 1.15, 1.3], prefix: (kw) => `DS3-${Math.round(kw * 1000)}` },
  { maker: 'SolarEdge Technologies', title: 'Single-phase HD-Wave inverter', micro: false, volts: [208, 240], efficiency: 99.0, kws: [3, 3.8, 5, 6, 7.6, 10, 11.4], prefix: (kw) => `SE${Math.round(kw * 1000)}H` },
  { maker: 'SMA America', title: 'Sunny Boy string inverter', micro: false, volts: [208, 240], efficiency: 97.0, kws: [3, 3.8, 5, 6, 7, 7.7], prefix: (kw) => `SB${fixed(kw)}-1SP` },
  { maker: 'SMA America', title: 'Sunny Tripower three-phase inverter', micro: false, volts: [480], efficiency: 98.0, kws: [12, 15, 20, 24, 30, 33.3, 50, 62.5], prefix: (kw) => `STP${String(kw).replace('.', '')}-US` },
  { maker: 'Fronius USA', title: 'Primo string inverter', micro: false, volts: [208, 240], efficiency: 96.5, kws: [3.8, 5, 6, 7.6, 8.2, 10, 11.4, 12.5, 15], prefix: (kw) => `Primo ${fixed(kw)}-1` },
  { maker: 'Fronius USA', title: 'Symo three-phase inverter', micro: false, volts: [208, 480], efficiency: 97.5, kws: [10, 12, 15, 17.5, 20, 22.7, 24], prefix: (kw) => `Symo ${fixed(kw)}-3` },
  { maker: 'Tesla', title: 'Solar inverter', micro: false, volts: [240], efficiency: 97.5, kws: [3.8, 5, 7.6], prefix: (kw) => `1538000-45-${Math.round(kw * 10)}` },
  { maker: 'Generac Power Systems', title: 'PWRcell hybrid inverter', micro: false, volts: [240], efficiency: 96.5, kws: [7.6, 11.4], prefix: (kw) => `XVT${String(Math.round(kw * 10)).padStart(3, '0')}A` },
  { maker: 'Sol-Ark', title: 'Hybrid inverter', micro: false, volts: [240, 208], efficiency: 96.5, kws: [5, 8, 12, 15, 30, 60], prefix: (kw) => `SA-${kw}K` },
  { maker: 'Chint Power Systems', title: 'Three-phase string inverter', micro: false, volts: [480], efficiency: 98.0, kws: [25, 36, 50, 60, 100, 125, 250], prefix: (kw) => `CPS SCA${kw}KTL` },
  { maker: 'Yaskawa Solectria Solar', title: 'Three-phase string inverter', micro: false, volts: [208, 480], efficiency: 97.5, kws: [14, 20, 23, 28, 36, 50], prefix: (kw) => `PVI ${kw}TL` },
  { maker: 'Delta Electronics', title: 'Solivia inverter', micro: false, volts: [208, 240, 480], efficiency: 97.5, kws: [3.8, 5.2, 6.6, 7.6, 8.6, 10, 12, 20, 24, 28, 40, 80], prefix: (kw) => `M${String(kw).replace('.', '')}U` },
  { maker: 'Ginlong Technologies (Solis)', title: 'String inverter', micro: false, volts: [208, 240, 480], efficiency: 97.5, kws: [3, 4, 5, 6, 7.6, 8, 10, 25, 40, 50, 100], prefix: (kw) => `S5-GR1P${kw}K` },
  { maker: 'Schneider Electric', title: 'Conext hybrid inverter', micro: false, volts: [240], efficiency: 95.5, kws: [4, 6.8], prefix: (kw) => `XW Pro ${Math.round(kw * 1000)}` },
];
// The variants a listing has: grid-support firmware, communications and enclosure options, revisions.
const OPTIONS = ['US', 'USR', 'US-41', 'US-40', 'US-50', 'NA', 'NA-G', 'USRGM', 'US000BNU4', 'US000NNC2', 'US-RSD', 'US-DC', 'US-AFCI', 'US-CELL', 'US-WIFI'];
const REVISIONS = ['', 'A', 'B', 'C', 'R1', 'R2', 'R3'];

/** The sample rows, header first: the same text every run. */
export function sampleInverterCsv(rows = SAMPLE_ROWS): string {
  const lines = ['Manufacturer,ModelNumber,Description,RatedKwAc,NominalVoltageAc,WeightedEfficiency,Microinverter,ListedOn'];
  const seen = new Set<string>();
  let n = 0;
  for (const revision of REVISIONS) {
    for (const option of OPTIONS) {
      for (const family of FAMILIES) {
        for (const kw of family.kws) {
          for (const volts of family.volts) {
            if (n >= rows) return `${lines.join('\n')}\n`;
            const model = `${family.prefix(kw)}-${volts === 240 ? '' : `${volts}-`}${option}${revision === '' ? '' : `-${revision}`}`;
            if (seen.has(model)) continue;
            seen.add(model);
            // Efficiency and listing date vary by position, deterministically, as in a real list.
            const efficiency = (family.efficiency - (n % 7) * 0.1).toFixed(1);
            const day = new Date(Date.UTC(2018, 0, 1) + ((n * 7919) % 2900) * 86_400_000).toISOString().slice(0, 10);
            const description = `${family.maker} ${model}: ${family.title}, ${kw} kW AC, ${volts} V${option.includes('RSD') ? ', rapid shutdown' : ''}`;
            lines.push([family.maker, model, `"${description}"`, String(kw), String(volts), efficiency, String(family.micro), day].join(','));
            n++;
          }
        }
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Where the demo's sample list lives. */
export const SAMPLE_INVERTERS_PATH = fileURLToPath(new URL('../programs/approved-inverters.csv', import.meta.url));

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--out');
  const out = at > 0 ? path.resolve(process.argv[at + 1]!) : SAMPLE_INVERTERS_PATH;
  writeFileSync(out, sampleInverterCsv());
  console.log(`Wrote ${SAMPLE_ROWS} rows to ${out}`);
}
