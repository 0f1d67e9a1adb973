/** Every generated section of the docs, by the name its marker gives (generate.ts). */
import { alarmsTable } from './alarm-table.ts';
import type { SectionGenerators } from './generate.ts';
import { errorsTable, operationAccessTable, operationsTable } from './operation-tables.ts';
import { docsEgressTable, stageCapacityTable, stageSettingsTable } from './stage-tables.ts';

export const SECTIONS: SectionGenerators = {
  alarms: alarmsTable,
  'docs-egress': docsEgressTable,
  errors: errorsTable,
  operations: operationsTable,
  'operation-access': operationAccessTable,
  'stage-capacity': stageCapacityTable,
  'stage-settings': stageSettingsTable,
};
