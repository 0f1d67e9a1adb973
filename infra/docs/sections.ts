/** Every generated section of the docs, by the name its marker gives (generate.ts). */
import type { SectionGenerators } from './generate.ts';
import { docsEgressTable, stageCapacityTable, stageSettingsTable } from './stage-tables.ts';

export const SECTIONS: SectionGenerators = {
  'docs-egress': docsEgressTable,
  'stage-capacity': stageCapacityTable,
  'stage-settings': stageSettingsTable,
};
