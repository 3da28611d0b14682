// The operations a fault rule names (docs/faults.md): the REST reference's names without spaces.
// The scenario format checks a rule's operation against them, and the inspector's fault panel
// offers them in its form.

export const FAULT_OPERATIONS = /** @type {const} */ ([
  'PutMessage',
  'GetMessages',
  'PeekMessages',
  'DeleteMessage',
  'UpdateMessage',
  'ClearMessages',
  'CreateQueue',
  'DeleteQueue',
  'ListQueues',
  'GetQueueMetadata',
  'SetQueueMetadata',
  'GetQueueACL',
  'SetQueueACL',
  'GetQueueServiceProperties',
  'SetQueueServiceProperties',
  'GetQueueServiceStats',
]);
