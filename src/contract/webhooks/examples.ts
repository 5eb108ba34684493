// The webhooks' examples for the OpenAPI document, real answers as in
// src/contract/reports/examples.ts; the document's lint validates each against its schema.
import { listExample } from '../pagination.js';

export const webhookCreated = {
  id: 1,
  url: 'https://hooks.example.com/pagegrade',
  events: ['report.created'],
  description: 'CI',
  enabled: true,
  disabled_at: null,
  disabled_reason: null,
  consecutive_failures: 0,
  created_at: '2026-11-25T22:54:35.658Z',
  updated_at: '2026-11-25T22:54:35.658Z',
  secret: 'whsec_1HQPjfhILrZIaGfx576PeJiVtHXi4Md4E3Sm1QFOrEw=',
  links: {
    self: 'https://pagegrade.example.com/api/v1/webhooks/1',
    deliveries: 'https://pagegrade.example.com/api/v1/webhooks/1/deliveries',
  },
};

export const webhook = {
  id: 1,
  url: 'https://hooks.example.com/pagegrade',
  events: ['report.created'],
  description: 'CI',
  enabled: true,
  disabled_at: null,
  disabled_reason: null,
  consecutive_failures: 0,
  created_at: '2026-11-25T22:54:35.658Z',
  updated_at: '2026-11-25T22:54:35.658Z',
  links: {
    self: 'https://pagegrade.example.com/api/v1/webhooks/1',
    deliveries: 'https://pagegrade.example.com/api/v1/webhooks/1/deliveries',
  },
};

export const webhookListMeta = listExample('https://pagegrade.example.com/api/v1/webhooks');

export const delivery = {
  id: 1,
  webhook_id: 1,
  event: 'webhook.test',
  webhook_message_id: 'msg_o0gXfCKgo-1lvopdLRcIHA',
  status: 'pending',
  attempts: 0,
  response_status: null,
  duration_ms: null,
  error: null,
  redelivery_of: null,
  created_at: '2026-11-25T22:54:35.666Z',
  last_attempt_at: null,
  delivered_at: null,
  links: {
    self: 'https://pagegrade.example.com/api/v1/webhooks/1/deliveries/1',
  },
};

export const deliveryListMeta = listExample('https://pagegrade.example.com/api/v1/webhooks/1/deliveries');

export const deliveryWithPayload = {
  id: 1,
  webhook_id: 1,
  event: 'webhook.test',
  webhook_message_id: 'msg_o0gXfCKgo-1lvopdLRcIHA',
  status: 'pending',
  attempts: 0,
  response_status: null,
  duration_ms: null,
  error: null,
  redelivery_of: null,
  created_at: '2026-11-25T22:54:35.666Z',
  last_attempt_at: null,
  delivered_at: null,
  payload: {
    type: 'webhook.test',
    timestamp: '2026-11-25T22:54:35.666Z',
    data: {
      webhook: {
        id: 1,
        url: 'https://hooks.example.com/pagegrade',
      },
    },
  },
  links: {
    self: 'https://pagegrade.example.com/api/v1/webhooks/1/deliveries/1',
  },
};
