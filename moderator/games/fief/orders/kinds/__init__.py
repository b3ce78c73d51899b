"""The orders of Fief: England as values, one module a topic; `orders.values` gathers them."""
