"""A turn: which orders stand and how late they are (`inputs`), press at the run (`press`),
deadlines (`deadlines`), and the run itself: adjudicate, store, publish (`run`)."""
