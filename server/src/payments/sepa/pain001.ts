/**
 * The SEPA credit-transfer file: an ISO 20022 `pain.001.001.09` (CustomerCreditTransferInitiationV09) message as the
 * EPC's SEPA Credit Transfer customer-to-bank implementation guidelines profile it, written with xmlbuilder2. Pure
 * code: no Nest, no database. The caller hands in values already checked (IBANs, amounts with at most two decimals,
 * names and texts in the SEPA character set and within their lengths, references valid as SEPA references).
 *
 * One message holds one payment information block (one debtor account, one execution date), which holds one credit
 * transfer per payee: service level SEPA, charges shared (SLEV), euros only.
 */
import { create } from 'xmlbuilder2';

export const PAIN_001_001_09_NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.09';

/** EPC limits that the XML schema leaves wider. */
export const SEPA_LIMITS = {
  /** Names of the initiating party, the debtor and each creditor. */
  nameLength: 70,
  /** Unstructured remittance information: one Ustrd of at most 140 characters. */
  remittanceLength: 140,
  /** An instructed amount: 0.01 to 999,999,999.99 euros. */
  maxAmount: '999999999.99',
} as const;

export interface CreditTransfer {
  endToEndId: string;
  /** Euros, a decimal string with at most two decimals. */
  amount: string;
  creditorName: string;
  creditorIban: string;
  remittanceInformation: string | null;
}

export interface CreditTransferInitiation {
  messageId: string;
  createdAt: Date;
  paymentInformationId: string;
  /** YYYY-MM-DD: the day the debtor's bank is asked to execute the transfers. */
  requestedExecutionDate: string;
  debtor: { name: string; iban: string; bic: string | null };
  transfers: CreditTransfer[];
}

/** Amount in cents, exactly ("12.5" → 1250n). */
export function toCents(amount: string): bigint {
  const [whole, fraction = ''] = amount.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
}

/** Cents as a decimal string with two decimals (1250n → "12.50"). */
export function fromCents(cents: bigint): string {
  const text = cents.toString().padStart(3, '0');
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}

/** The sum of the transfers' amounts, exactly, with two decimals. */
export function controlSum(transfers: ReadonlyArray<Pick<CreditTransfer, 'amount'>>): string {
  return fromCents(transfers.reduce((sum, t) => sum + toCents(t.amount), 0n));
}

/** ISODateTime to the second, in UTC: what every bank reads. */
function isoDateTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The file, UTF-8, indented. */
export function writePain001(message: CreditTransferInitiation): string {
  const count = String(message.transfers.length);
  const sum = controlSum(message.transfers);
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const initiation = doc.ele(PAIN_001_001_09_NAMESPACE, 'Document').ele('CstmrCdtTrfInitn');

  const header = initiation.ele('GrpHdr');
  header.ele('MsgId').txt(message.messageId);
  header.ele('CreDtTm').txt(isoDateTime(message.createdAt));
  header.ele('NbOfTxs').txt(count);
  header.ele('CtrlSum').txt(sum);
  header.ele('InitgPty').ele('Nm').txt(message.debtor.name);

  const payment = initiation.ele('PmtInf');
  payment.ele('PmtInfId').txt(message.paymentInformationId);
  payment.ele('PmtMtd').txt('TRF');
  payment.ele('NbOfTxs').txt(count);
  payment.ele('CtrlSum').txt(sum);
  payment.ele('PmtTpInf').ele('SvcLvl').ele('Cd').txt('SEPA');
  payment.ele('ReqdExctnDt').ele('Dt').txt(message.requestedExecutionDate);
  payment.ele('Dbtr').ele('Nm').txt(message.debtor.name);
  payment.ele('DbtrAcct').ele('Id').ele('IBAN').txt(message.debtor.iban);
  const institution = payment.ele('DbtrAgt').ele('FinInstnId');
  // Without the debtor bank's BIC the guidelines ask for Othr/Id NOTPROVIDED: the bank knows itself from the IBAN.
  if (message.debtor.bic) institution.ele('BICFI').txt(message.debtor.bic);
  else institution.ele('Othr').ele('Id').txt('NOTPROVIDED');
  payment.ele('ChrgBr').txt('SLEV');

  for (const transfer of message.transfers) {
    const tx = payment.ele('CdtTrfTxInf');
    tx.ele('PmtId').ele('EndToEndId').txt(transfer.endToEndId);
    tx.ele('Amt')
      .ele('InstdAmt', { Ccy: 'EUR' })
      .txt(fromCents(toCents(transfer.amount)));
    tx.ele('Cdtr').ele('Nm').txt(transfer.creditorName);
    tx.ele('CdtrAcct').ele('Id').ele('IBAN').txt(transfer.creditorIban);
    if (transfer.remittanceInformation) tx.ele('RmtInf').ele('Ustrd').txt(transfer.remittanceInformation);
  }
  return doc.end({ prettyPrint: true });
}
