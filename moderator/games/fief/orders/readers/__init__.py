"""Reading the orders of Fief: one module an order family; `orders.parse` reads a line."""
