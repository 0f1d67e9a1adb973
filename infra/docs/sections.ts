/** Every generated section of the docs, by the name its marker gives (generate.ts). */
import { alarmsTable } from './alarm-table.ts';
import { clientLimitsTable, errorTable, retryTable } from './client-tables.ts';
import type { SectionGenerators } from './generate.ts';
import { operationAccessTable, operationsTable } from './operation-tables.ts';
import { docsEgressTable, stageCapacityTable, stageSettingsTable } from './stage-tables.ts';

export const SECTIONS: SectionGenerators = {
  alarms: alarmsTable,
  'client-limits': clientLimitsTable,
  errors: errorTable,
  'retry-contract': retryTable,
  'docs-egress': docsEgressTable,
  operations: operationsTable,
  'operation-access': operationAccessTable,
  'stage-capacity': stageCapacityTable,
  'stage-settings': stageSettingsTable,
};
