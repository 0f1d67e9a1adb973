/**
 * The stage's DynamoDB tables, built from the shared definitions in lib/store/tables.ts (the same
 * data local mode creates its tables from), so the cloud and local schemas cannot drift. A table
 * added to `allTables` is deployed without a change here.
 */
import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { type Attribute, AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { allTables, type KeyAttribute, type TableDefinition } from '#lib/store/tables.ts';

/** A deployed table together with the definition it was built from. */
export interface ServiceTable {
  readonly definition: TableDefinition;
  readonly table: Table;
}

export interface DataTablesProps {
  /** Production: retain on stack deletion and turn on deletion protection. */
  readonly protectData: boolean;
  readonly definitions?: readonly TableDefinition[];
}

export class DataTables extends Construct {
  readonly all: readonly ServiceTable[];

  constructor(scope: Construct, id: string, props: DataTablesProps) {
    super(scope, id);
    const stackName = Stack.of(this).stackName;
    this.all = (props.definitions ?? allTables).map((definition) => {
      const table = new Table(this, definition.logicalName, {
        // Readable physical names (PetStore-staging-Pets) for operators and the key CLI.
        tableName: `${stackName}-${definition.logicalName}`,
        partitionKey: attribute(definition.partitionKey),
        ...(definition.timeToLiveAttribute ? { timeToLiveAttribute: definition.timeToLiveAttribute } : {}),
        billingMode: BillingMode.PAY_PER_REQUEST,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        deletionProtection: props.protectData,
        removalPolicy: props.protectData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      });
      for (const index of definition.globalSecondaryIndexes) {
        table.addGlobalSecondaryIndex({
          indexName: index.indexName,
          partitionKey: attribute(index.partitionKey),
          ...(index.sortKey ? { sortKey: attribute(index.sortKey) } : {}),
          projectionType: ProjectionType.ALL,
        });
      }
      return { definition, table };
    });
  }

  /** The table with this logical name (`Pets`, `ApiKeys`); throws if it is not defined. */
  get(logicalName: string): ServiceTable {
    const found = this.all.find((t) => t.definition.logicalName === logicalName);
    if (!found) throw new Error(`No table ${logicalName} in lib/store/tables.ts`);
    return found;
  }
}

function attribute(key: KeyAttribute): Attribute {
  return { name: key.name, type: key.type === 'N' ? AttributeType.NUMBER : AttributeType.STRING };
}
