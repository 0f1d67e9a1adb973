// Built from lib/store/tables.ts, as local mode's are.
import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { type Attribute, AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { allTables, type KeyAttribute, type TableDefinition } from '#lib/store/tables.ts';

export interface ServiceTable {
  readonly definition: TableDefinition;
  readonly table: Table;
}

export interface DataTablesProps {
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

  get(logicalName: string): ServiceTable {
    const found = this.all.find((t) => t.definition.logicalName === logicalName);
    if (!found) throw new Error(`No table ${logicalName} in lib/store/tables.ts`);
    return found;
  }
}

function attribute(key: KeyAttribute): Attribute {
  return { name: key.name, type: key.type === 'N' ? AttributeType.NUMBER : AttributeType.STRING };
}
