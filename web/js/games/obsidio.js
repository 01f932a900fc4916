// Obsidio's drawing style: while a light-square placement waits for its second token, the first
// one is drawn see-through on the square chosen.

export default {
  ghosts(builder) {
    const g = new Map();
    const colour = builder.state && builder.state.to_move && builder.state.to_move.colour;
    if (colour && builder.sel.length) g.set(builder.sel[0], { colour, r: 0.3 });
    return g;
  },
};
