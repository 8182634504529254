export interface WriteRateEventsTable {
  account_id: string;
  at: Date;
}
