"""Pure rules of memlane: model, importance, classification, decay, scoring, rendering."""
