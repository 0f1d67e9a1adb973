/** Worker: the embedded DynamoDB-compatible store (dynalite, in memory) both servers share. */
import { startEmbeddedDynamoDb } from '../../local/embedded-dynamodb.ts';
import { serve } from './rpc.ts';

const store = await startEmbeddedDynamoDb();
serve({ endpoint: () => store.endpoint }, () => store.close());
