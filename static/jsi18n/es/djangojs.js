
'use strict';
{
  const globals = this;
  const django = globals.django || (globals.django = {});

  
  django.pluralidx = function(n) {
    const v = (n != 1);
    if (typeof v === 'boolean') {
      return v ? 1 : 0;
    } else {
      return v;
    }
  };
  

  /* gettext library */

  django.catalog = django.catalog || {};
  
  const newcatalog = {
    "%(a)s (%(ra)s) vs %(b)s (%(rb)s)": "%(a)s (%(ra)s) contra %(b)s (%(rb)s)",
    "%(a)s vs %(b)s": "%(a)s contra %(b)s",
    "%(action)s (%(p)s)": "%(action)s (%(p)s)",
    "%(action)s: win chance %(c)s, %(p)s points": "%(action)s: probabilidad de ganar %(c)s, %(p)s puntos",
    "%(challenger)s challenges you": "%(challenger)s te desaf\u00eda",
    "%(first)s \u2013 %(second)s: no result": "%(first)s \u2013 %(second)s: sin resultado",
    "%(games)s game in progress": [
      "%(games)s partida en juego",
      "%(games)s partidas en juego"
    ],
    "%(n)s min": "%(n)s min",
    "%(n)s point": [
      "%(n)s punto",
      "%(n)s puntos"
    ],
    "%(n)s tile": [
      "%(n)s ficha",
      "%(n)s fichas"
    ],
    "%(n)s viewer": [
      "%(n)s espectador",
      "%(n)s espectadores"
    ],
    "%(p)s %(after)s (%(delta)s)": "%(p)s %(after)s (%(delta)s)",
    "%(p)s accepts: %(payer)s pays %(amount)s and leads": "%(p)s acepta: %(payer)s paga %(amount)s y sale",
    "%(p)s bids %(amount)s": "%(p)s puja %(amount)s",
    "%(p)s cannot bid and renounces": "%(p)s no puede pujar y renuncia",
    "%(p)s cannot play and passes": "%(p)s no puede jugar y pasa",
    "%(p)s declined the rematch.": "%(p)s rechaz\u00f3 la revancha.",
    "%(p)s drew %(tile)s": "%(p)s rob\u00f3 %(tile)s",
    "%(p)s drew a tile": "%(p)s rob\u00f3 una ficha",
    "%(p)s is back.": "%(p)s ha vuelto.",
    "%(p)s is ready": "%(p)s ha pulsado Iniciar",
    "%(p)s is ready for the next round": "%(p)s ha pulsado Continuar",
    "%(p)s leads": "Sale %(p)s",
    "%(p)s leads by rank with %(tile)s": "%(p)s sale por rango con %(tile)s",
    "%(p)s leads with %(tile)s": "%(p)s sale con %(tile)s",
    "%(p)s lost the connection; their clock keeps running.": "%(p)s ha perdido la conexi\u00f3n; su reloj sigue corriendo.",
    "%(p)s offers a rematch, with the seats swapped.": "%(p)s ofrece la revancha, con los asientos cambiados.",
    "%(p)s played %(tile)s %(end)s": "%(p)s jug\u00f3 %(tile)s %(end)s",
    "%(p)s raises to %(amount)s": "%(p)s sube a %(amount)s",
    "%(p)s ran out of time": "A %(p)s se le acab\u00f3 el tiempo",
    "%(p)s renounces the lead": "%(p)s renuncia a la salida",
    "%(p)s resigned": "%(p)s abandon\u00f3",
    "%(p)s still held": "A %(p)s le quedaban",
    "%(p)s took the device": "%(p)s tom\u00f3 el dispositivo",
    "%(p)s went out": "%(p)s hizo domin\u00f3",
    "%(p)s wins": "Gana %(p)s",
    "%(p)s wins (%(reason)s)": "Gana %(p)s (%(reason)s)",
    "%(p)s won.": "Gan\u00f3 %(p)s.",
    "%(p)s won: %(other)s ran out of time.": "Gan\u00f3 %(p)s: a %(other)s se le acab\u00f3 el tiempo.",
    "%(p)s won: %(other)s resigned.": "Gan\u00f3 %(p)s: %(other)s abandon\u00f3.",
    "%(p)s won: %(other)s's balance ran out.": "Gan\u00f3 %(p)s: a %(other)s se le acab\u00f3 el saldo.",
    "%(p)s's hand is empty": "La mano de %(p)s est\u00e1 vac\u00eda",
    "%(p)s's hand: %(tiles)s": "Mano de %(p)s: %(tiles)s",
    "%(p)s's turn": "Turno de %(p)s",
    "%(p)s, you cannot play: draw a tile": "%(p)s, no puedes jugar: roba una ficha",
    "%(p)s, you lead: play any tile": "%(p)s, sales t\u00fa: juega cualquier ficha",
    "%(p)s, your decision in the auction": "%(p)s, te toca decidir en la subasta",
    "%(p)s, your turn": "%(p)s, tu turno",
    "%(p)s, your turn: play a tile": "%(p)s, tu turno: juega una ficha",
    "%(p)s: %(n)s points in hand": "%(p)s: %(n)s puntos en mano",
    "%(p)s: not yet": "%(p)s: todav\u00eda no",
    "%(payer)s paid %(payee)s %(n)s": "%(payer)s pag\u00f3 %(n)s a %(payee)s",
    "%(payer)s paid %(payee)s %(n)s for the block": "%(payer)s pag\u00f3 %(n)s a %(payee)s por el bloqueo",
    "%(payer)s paid %(payee)s %(n)s for the lead": "%(payer)s pag\u00f3 %(n)s a %(payee)s por la salida",
    "%(payer)s paid %(payee)s %(n)s in scores": "%(payer)s pag\u00f3 %(n)s a %(payee)s en puntuaciones",
    "%(time)s left": "quedan %(time)s",
    "%(username)s declined your challenge.": "%(username)s rechaz\u00f3 tu desaf\u00edo.",
    "%(winner)s beat %(loser)s": "%(winner)s gan\u00f3 a %(loser)s",
    "+%(games)s too short": [
      "+%(games)s demasiado corta",
      "+%(games)s demasiado cortas"
    ],
    "+%(n)s point": [
      "+%(n)s punto",
      "+%(n)s puntos"
    ],
    "A service fault kept the server from measuring time reliably, so the game is cancelled with no rating result (R7.10).": "Un fallo del servicio impidi\u00f3 medir el tiempo con fiabilidad, as\u00ed que la partida se cancela sin resultado de rating (R7.10).",
    "Accept": "Aceptar",
    "Accept %(n)s": "Aceptar %(n)s",
    "Accept %(n)s (they pay %(cost)s)": "Aceptar %(n)s (paga %(cost)s)",
    "Accept the rematch": "Aceptar la revancha",
    "Accept: your opponent pays you %(paid)s and leads.": "Aceptar: tu rival te paga %(paid)s y sale.",
    "Amount": "Cantidad",
    "As good as the best: %(action)s keeps a win chance of %(c)s.": "Tan buena como la mejor: %(action)s mantiene una probabilidad de ganar de %(c)s.",
    "Auction": "Subasta",
    "Auction: %(p)s is deciding": "Subasta: decide %(p)s",
    "Auction: your decision": "Subasta: te toca decidir",
    "Back to the arena": "Volver a la arena",
    "Back to the lobby": "Volver a la sala",
    "Back to the summary": "Volver al resumen",
    "Balance %(n)s": "Saldo %(n)s",
    "Balances: %(a)s %(x)s \u2013 %(y)s %(b)s": "Saldos: %(a)s %(x)s \u2013 %(y)s %(b)s",
    "Bank %(t)s": "Banco %(t)s",
    "Best: %(tile)s %(where)s scores %(p)s (lit on the table).": "Lo mejor: %(tile)s %(where)s punt\u00faa %(p)s (iluminada en la mesa).",
    "Best: %(tile)s scores %(p)s (lit in your hand).": "Lo mejor: %(tile)s punt\u00faa %(p)s (iluminada en tu mano).",
    "Bid %(n)s": "Pujar %(n)s",
    "Block: equal hands (%(a)s\u2013%(b)s), nothing paid": "Bloqueo: manos iguales (%(a)s\u2013%(b)s), no se paga nada",
    "Block: hands %(a)s\u2013%(b)s, %(p)s receives %(points)s": "Bloqueo: manos %(a)s\u2013%(b)s, %(p)s recibe %(points)s",
    "Boneyard: %(n)s": "Mont\u00f3n: %(n)s",
    "Both players press Start. The clocks start with the first decision.": "Los dos jugadores pulsan Iniciar. Los relojes arrancan con la primera decisi\u00f3n.",
    "Bottom": "Abajo",
    "Cancel": "Cancelar",
    "Cancelled": "Cancelada",
    "Choose an end for the tile": "Elige un extremo para la ficha",
    "Computer": "Ordenador",
    "Computer (easy)": "Ordenador (f\u00e1cil)",
    "Computer (hard)": "Ordenador (dif\u00edcil)",
    "Computer (medium)": "Ordenador (medio)",
    "Connected": "Conectado",
    "Connection lost, reconnecting\u2026": "Conexi\u00f3n perdida, reconectando\u2026",
    "Connection lost: reconnecting\u2026": "Conexi\u00f3n perdida: reconectando\u2026",
    "Connection to the server lost \u2014 your last move is being retried.": "Se perdi\u00f3 la conexi\u00f3n con el servidor: se est\u00e1 reintentando tu \u00faltima jugada.",
    "Continue": "Continuar",
    "Count %(count)s: %(p)s scores %(points)s": "Suma %(count)s: %(p)s se anota %(points)s",
    "Count %(count)s: %(p)s scores %(points)s (all that was left)": "Suma %(count)s: %(p)s se anota %(points)s (todo lo que quedaba)",
    "Count %(n)s": "Suma %(n)s",
    "Count %(n)s \u2192 scores %(p)s": "Suma %(n)s \u2192 punt\u00faa %(p)s",
    "Decline": "Rechazar",
    "Disconnected": "Desconectado",
    "Domino! %(p)s went out and will be the jockey": "\u00a1Domin\u00f3! %(p)s se qued\u00f3 sin fichas y ser\u00e1 el jockey",
    "Drawn": "Robada",
    "Final balances: %(a)s %(x)s \u2013 %(y)s %(b)s": "Saldos finales: %(a)s %(x)s \u2013 %(y)s %(b)s",
    "Game aborted": "Partida anulada",
    "Game cancelled": "Partida cancelada",
    "Game over": "Fin de la partida",
    "Go to the rematch": "Ir a la revancha",
    "Go to your next game": "Ir a tu siguiente partida",
    "If accepted it costs you %(cost)s": "Si la aceptan te cuesta %(cost)s",
    "If accepted it costs you %(cost)s (jockey discount: %(d)s off)": "Si la aceptan te cuesta %(cost)s (descuento de jockey: %(d)s menos)",
    "If accepted it costs you all %(cost)s of your balance, and you lose the game.": "Si la aceptan te cuesta todo tu saldo (%(cost)s) y pierdes la partida.",
    "In your time zone (%(zone)s).": "En tu zona horaria (%(zone)s).",
    "Jockey (went out last round): %(p)s": "Jockey (domin\u00f3 la \u00faltima ronda): %(p)s",
    "Joining the queue\u2026": "Entrando en la cola\u2026",
    "Lead": "Salida",
    "Leave the queue": "Salir de la cola",
    "Left": "Izquierda",
    "Lower the amount by 5": "Bajar la cantidad 5",
    "Luck: %(l)s win chance": "Suerte: %(l)s de probabilidad de ganar",
    "Luck: %(l)s win chance (deals %(d)s, draws %(w)s)": "Suerte: %(l)s de probabilidad de ganar (repartos %(d)s, robos %(w)s)",
    "Max": "M\u00e1x.",
    "Mistake %(n)s of %(total)s": "Error %(n)s de %(total)s",
    "New game on this device": "Nueva partida en este dispositivo",
    "Next round in %(s)s s.": "Siguiente ronda en %(s)s s.",
    "No bid yet: %(p)s bids at least %(n)s or renounces": "A\u00fan no hay puja: %(p)s puja al menos %(n)s o renuncia",
    "No bid yet: you bid at least %(n)s or renounce": "A\u00fan no hay puja: puja al menos %(n)s o renuncia",
    "No game has ended yet.": "A\u00fan no ha terminado ninguna partida.",
    "No game is being played right now.": "Ahora no se est\u00e1 jugando ninguna partida.",
    "No mistakes.": "Ning\u00fan error.",
    "No open challenges.": "No hay desaf\u00edos abiertos.",
    "No points changed hands this round.": "En esta ronda no cambi\u00f3 de manos ning\u00fan punto.",
    "No tile scores now: any tile that fits will do.": "Ahora no punt\u00faa ninguna ficha: vale cualquiera que encaje.",
    "Nobody has joined yet.": "Todav\u00eda no se ha unido nadie.",
    "None of your tiles matches an open end (%(ends)s): draw.": "Ninguna de tus fichas encaja en un extremo abierto (%(ends)s): roba.",
    "Not both players pressed Start in time: no result, no rating change.": "No pulsaron Iniciar los dos a tiempo: sin resultado ni cambio de rating.",
    "Not connected: reconnecting\u2026": "Sin conexi\u00f3n: reconectando\u2026",
    "Not yet: %(best)s was better by %(loss)s of win chance (%(c)s against %(o)s).": "Todav\u00eda no: %(best)s era mejor por %(loss)s de probabilidad de ganar (%(c)s frente a %(o)s).",
    "Open challenge from %(challenger)s": "Desaf\u00edo abierto de %(challenger)s",
    "Opponent found! Opening your game\u2026": "\u00a1Rival encontrado! Abriendo tu partida\u2026",
    "Or raise to %(min)s to %(max)s: accepted, %(min)s costs you %(cost)s and you lead.": "O subir de %(min)s a %(max)s: si te la aceptan, %(min)s te cuesta %(cost)s y sales t\u00fa.",
    "Pass the device to %(p)s": "Pasa el dispositivo a %(p)s",
    "Pause": "Pausa",
    "Paused: you get no new game until you resume.": "En pausa: no tendr\u00e1s partida nueva hasta que vuelvas.",
    "Play": "Reproducir",
    "Play %(end)s": "Jugar %(end)s",
    "Play %(end)s: count %(n)s": "Jugar %(end)s: suma %(n)s",
    "Play %(end)s: count %(n)s, scores %(p)s": "Jugar %(end)s: suma %(n)s, punt\u00faa %(p)s",
    "Play the tile you drew: %(t)s": "Juega la ficha robada: %(t)s",
    "Player %(n)s": "Jugador %(n)s",
    "Playing": "En juego",
    "Raise the amount by 5": "Subir la cantidad 5",
    "Raise to %(n)s": "Subir a %(n)s",
    "Ratings: %(list)s": "Ratings: %(list)s",
    "Ready to play?": "\u00bfListos para jugar?",
    "Rematch": "Revancha",
    "Rematch offered: waiting for %(p)s.": "Revancha ofrecida: esperando a %(p)s.",
    "Renounce": "Renunciar",
    "Renounce: %(p)s leads for free and nobody pays.": "Renunciar: %(p)s sale gratis y nadie paga.",
    "Renounce: the jockey leads for free. Or bid %(min)s to %(max)s: accepted, a bid of %(min)s costs you %(cost)s and you lead.": "Renunciar: el jockey sale gratis. O pujar de %(min)s a %(max)s: si te la aceptan, una puja de %(min)s te cuesta %(cost)s y sales t\u00fa.",
    "Resume the arena": "Reanudar la arena",
    "Review: decision %(n)s of %(total)s": "An\u00e1lisis: decisi\u00f3n %(n)s de %(total)s",
    "Review: starting\u2026": "An\u00e1lisis: empezando\u2026",
    "Right": "Derecha",
    "Rival: %(p)s": "Rival: %(p)s",
    "Round %(n)s": "Ronda %(n)s",
    "Round %(n)s over (%(reason)s)": "Fin de la ronda %(n)s (%(reason)s)",
    "Round %(n)s over: %(reason)s": "Fin de la ronda %(n)s: %(reason)s",
    "Round %(n)s: tiles dealt": "Ronda %(n)s: fichas repartidas",
    "Round %(round)s \u00b7 balances %(a)s\u2013%(b)s": "Ronda %(round)s \u00b7 saldos %(a)s\u2013%(b)s",
    "Round over": "Fin de la ronda",
    "See the game review": "Ver el an\u00e1lisis de la partida",
    "See the table": "Ver la mesa",
    "Show my tiles": "Mostrar mis fichas",
    "Sign in again": "Vuelve a iniciar sesi\u00f3n",
    "Something went wrong.": "Algo ha fallado.",
    "Sound: off": "Sonido: no",
    "Sound: on": "Sonido: s\u00ed",
    "Standing bid: %(n)s by %(p)s": "Puja vigente: %(n)s de %(p)s",
    "Start": "Iniciar",
    "Start in:": "Empezar en:",
    "Start of the game": "Inicio de la partida",
    "Starting the game\u2026": "Empezando la partida\u2026",
    "Stay here": "Quedarme aqu\u00ed",
    "Step %(n)s of %(total)s": "Paso %(n)s de %(total)s",
    "That tile cannot be played now.": "Esa ficha no se puede jugar ahora.",
    "The arena is over.": "La arena ha terminado.",
    "The clock of the next player starts when they show their tiles.": "El reloj del siguiente jugador arranca cuando muestre sus fichas.",
    "The computer could not answer. Try again.": "El ordenador no pudo responder. Int\u00e9ntalo de nuevo.",
    "The computer would also have played this.": "El ordenador habr\u00eda jugado lo mismo.",
    "The game is aborted in %(s)s s unless both press Start.": "La partida se anula en %(s)s s si no pulsan Iniciar los dos.",
    "The game was aborted: not started in time": "La partida se cancel\u00f3: no se inici\u00f3 a tiempo",
    "The game was cancelled: a service fault, no result (R7.10)": "La partida se cancel\u00f3: un fallo del servicio, sin resultado (R7.10)",
    "The most you can bid now": "Lo m\u00e1ximo que puedes pujar ahora",
    "The rematch has started.": "La revancha ha empezado.",
    "The review could not be made.": "No se pudo hacer el an\u00e1lisis.",
    "The review is ready.": "El an\u00e1lisis est\u00e1 listo.",
    "The server is unavailable: trying again\u2026": "El servidor no est\u00e1 disponible: se vuelve a intentar\u2026",
    "The winner pays the bid and leads the next round with any tile.": "Quien gana paga su puja y sale en la ronda siguiente con cualquier ficha.",
    "Thinking\u2026": "Pensando\u2026",
    "This game does not exist.": "Esta partida no existe.",
    "This page may not connect to the game server. Reload it to try again.": "Esta p\u00e1gina no puede conectarse al servidor de juego. Rec\u00e1rgala para volver a intentarlo.",
    "Tile %(a)s-%(b)s": "Ficha %(a)s-%(b)s",
    "Top": "Arriba",
    "Waiting for %(p)s to decide\u2026": "Esperando a que decida %(p)s\u2026",
    "Waiting for an opponent\u2026": "Esperando un rival\u2026",
    "Waiting for both players to press Start": "Esperando a que los dos pulsen Iniciar",
    "Waiting for both players to start": "Esperando a que ambos jugadores empiecen",
    "Waiting for the start": "Esperando el inicio",
    "Waiting for your next opponent\u2026": "Esperando a tu siguiente rival\u2026",
    "Watch": "Mirar",
    "Withdraw the offer": "Retirar la oferta",
    "You are back in the queue: %(n)s player waiting.": [
      "Vuelves a estar en la cola: %(n)s jugador esperando.",
      "Vuelves a estar en la cola: %(n)s jugadores esperando."
    ],
    "You are signed out.": "Has cerrado la sesi\u00f3n.",
    "You cannot play: draw a tile": "No puedes jugar: roba una ficha",
    "You challenged %(opponent)s": "Has desafiado a %(opponent)s",
    "You lead: play any tile": "Sales t\u00fa: juega cualquier ficha",
    "You left the queue.": "Has salido de la cola.",
    "You lose": "Has perdido",
    "You win!": "\u00a1Has ganado!",
    "Your game": "Tu partida",
    "Your hand: %(tiles)s": "Tu mano: %(tiles)s",
    "Your next game opens in %(s)s s.": "Tu siguiente partida se abre en %(s)s s.",
    "Your open challenge": "Tu desaf\u00edo abierto",
    "Your turn": "Tu turno",
    "Your turn: play a tile": "Tu turno: juega una ficha",
    "auction: %(n)s": "subasta: %(n)s",
    "balance ran out": "saldo agotado",
    "balances %(a)s \u2013 %(b)s": "saldos %(a)s \u2013 %(b)s",
    "block": "bloqueo",
    "block: %(n)s": "bloqueo: %(n)s",
    "blunder": "error grave",
    "domino": "domin\u00f3",
    "drawn tile: must be played": "ficha robada: hay que jugarla",
    "easy": "f\u00e1cil",
    "fits several ends": "encaja en varios extremos",
    "games too short to count": "partidas demasiado cortas para contar",
    "good": "buena",
    "hard": "dif\u00edcil",
    "inaccuracy": "imprecisi\u00f3n",
    "jockey": "jockey",
    "medium": "medio",
    "mistake": "error",
    "not started in time": "no se inici\u00f3 a tiempo",
    "on a streak": "en racha",
    "on the bottom arm": "en el brazo de abajo",
    "on the left": "a la izquierda",
    "on the right": "a la derecha",
    "on the top arm": "en el brazo de arriba",
    "paused": "en pausa",
    "playable": "jugable",
    "rank %(rank)s of %(n)s": "puesto %(rank)s de %(n)s",
    "resignation": "abandono",
    "round %(r)s": "ronda %(r)s",
    "same device": "mismo dispositivo",
    "score %(n)s": "puntuaci\u00f3n %(n)s",
    "scored %(n)s": "puntu\u00f3 %(n)s",
    "standing bid %(n)s": "puja vigente %(n)s",
    "starts in %(time)s": "empieza en %(time)s",
    "streak %(n)s": "racha %(n)s",
    "time ran out": "tiempo agotado",
    "to act": "le toca",
    "too short: counts nothing": "demasiado corta: no cuenta",
    "watch": "ver",
    "winner": "ganador",
    "you": "t\u00fa",
    "your balance %(mine)s, your opponent's %(theirs)s": "tu saldo %(mine)s, el de tu rival %(theirs)s"
  };
  for (const key in newcatalog) {
    django.catalog[key] = newcatalog[key];
  }
  

  if (!django.jsi18n_initialized) {
    django.gettext = function(msgid) {
      const value = django.catalog[msgid];
      if (typeof value === 'undefined') {
        return msgid;
      } else {
        return (typeof value === 'string') ? value : value[0];
      }
    };

    django.ngettext = function(singular, plural, count) {
      const value = django.catalog[singular];
      if (typeof value === 'undefined') {
        return (count == 1) ? singular : plural;
      } else {
        return value.constructor === Array ? value[django.pluralidx(count)] : value;
      }
    };

    django.gettext_noop = function(msgid) { return msgid; };

    django.pgettext = function(context, msgid) {
      let value = django.gettext(context + '\x04' + msgid);
      if (value.includes('\x04')) {
        value = msgid;
      }
      return value;
    };

    django.npgettext = function(context, singular, plural, count) {
      let value = django.ngettext(context + '\x04' + singular, context + '\x04' + plural, count);
      if (value.includes('\x04')) {
        value = django.ngettext(singular, plural, count);
      }
      return value;
    };

    django.interpolate = function(fmt, obj, named) {
      if (named) {
        return fmt.replace(/%\(\w+\)s/g, function(match){return String(obj[match.slice(2,-2)])});
      } else {
        return fmt.replace(/%s/g, function(match){return String(obj.shift())});
      }
    };


    /* formatting library */

    django.formats = {
    "DATETIME_FORMAT": "j \\d\\e F \\d\\e Y \\a \\l\\a\\s H:i",
    "DATETIME_INPUT_FORMATS": [
      "%d/%m/%Y %H:%M:%S",
      "%d/%m/%Y %H:%M:%S.%f",
      "%d/%m/%Y %H:%M",
      "%d/%m/%y %H:%M:%S",
      "%d/%m/%y %H:%M:%S.%f",
      "%d/%m/%y %H:%M",
      "%Y-%m-%d %H:%M:%S",
      "%Y-%m-%d %H:%M:%S.%f",
      "%Y-%m-%d %H:%M",
      "%Y-%m-%d"
    ],
    "DATE_FORMAT": "j \\d\\e F \\d\\e Y",
    "DATE_INPUT_FORMATS": [
      "%d/%m/%Y",
      "%d/%m/%y",
      "%Y-%m-%d"
    ],
    "DECIMAL_SEPARATOR": ",",
    "FIRST_DAY_OF_WEEK": 1,
    "MONTH_DAY_FORMAT": "j \\d\\e F",
    "NUMBER_GROUPING": 3,
    "SHORT_DATETIME_FORMAT": "d/m/Y H:i",
    "SHORT_DATE_FORMAT": "d/m/Y",
    "THOUSAND_SEPARATOR": "\u00a0",
    "TIME_FORMAT": "H:i",
    "TIME_INPUT_FORMATS": [
      "%H:%M:%S",
      "%H:%M:%S.%f",
      "%H:%M"
    ],
    "YEAR_MONTH_FORMAT": "F \\d\\e Y"
  };

    django.get_format = function(format_type) {
      const value = django.formats[format_type];
      if (typeof value === 'undefined') {
        return format_type;
      } else {
        return value;
      }
    };

    /* add to global namespace */
    globals.pluralidx = django.pluralidx;
    globals.gettext = django.gettext;
    globals.ngettext = django.ngettext;
    globals.gettext_noop = django.gettext_noop;
    globals.pgettext = django.pgettext;
    globals.npgettext = django.npgettext;
    globals.interpolate = django.interpolate;
    globals.get_format = django.get_format;

    django.jsi18n_initialized = true;
  }
};

