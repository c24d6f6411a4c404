export const PAYMENT_STATUSES = ['PAID', 'TO_PAY'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_METHODS = ['CARD', 'CASH', 'CHECK', 'DEFERRED', 'TAX_FORM', 'FISCAL_CREDIT', 'OTHER', 'POSTAL', 'RIBA', 'SDD', 'TRANSFER'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
